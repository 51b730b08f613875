#!/usr/bin/env bash
# student-release.sh writes the student release of the lessons: the
# repository's files with nothing a student may not have. It is what the
# shared install copies to every student (scripts/setup.sh --system), and what
# an instructor publishes for nbgitpuller (a folder, or a git branch).
#
# Usage: scripts/student-release.sh [--release-solutions LIST] [--branch NAME] DIR
#
#   DIR                        the folder to write (made, or emptied first:
#                              it must be empty or a previous release)
#   --release-solutions LIST   the assignments whose solution.ipynb students
#                              may have, by folder or by its hwN prefix,
#                              comma-separated: hw1,hw2_pla (default none)
#   --branch NAME              also commit the release as the whole tree of
#                              branch NAME of the repository (made or moved
#                              forward; your work tree and current branch are
#                              untouched): push it and point nbgitpuller's
#                              links at it (docs/instructor.md, "Updates from git: nbgitpuller")
#
# Left out: .git, bin/, .venv/, scripts/requirements/node_modules/, my-lessons/
# (the working copy scripts/lessons.sh makes), the web site's
# build (_site/, .site-work/, scripts/site/node_modules/), notebook
# checkpoints; every assignment's source.ipynb (solutions and hidden tests)
# and, unless released, solution.ipynb (also *_source.ipynb and
# *_solution.ipynb); lessons/assign/, the grader, whose tests and testdata
# hold hidden tests (instructors run it from their own clone). Then every file
# written is read, and the release is refused if one still holds a line
# opening a solution or hidden tests (// BEGIN SOLUTION, // BEGIN HIDDEN
# TESTS, or a written answer's <!-- BEGIN SOLUTION -->) outside a released
# solution.ipynb.
set -euo pipefail

die() { printf 'student-release: ERROR: %s\n' "$*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

release=""
branch=""
dest=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--release-solutions) [[ $# -ge 2 ]] || die "--release-solutions needs a list (hw1,hw2)"; release=$2; shift 2 ;;
	--release-solutions=*) release=${1#*=}; shift ;;
	--branch) [[ $# -ge 2 ]] || die "--branch needs a name"; branch=$2; shift 2 ;;
	--branch=*) branch=${1#*=}; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) [[ -z $dest ]] || die "one folder only, got $dest and $1"; dest=$1; shift ;;
	esac
done
[[ -n $dest ]] || die "no folder given (see --help)"

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The released assignments' folders, each checked to exist.
released=()
IFS=',' read -r -a names <<<"${release// /}"
for n in "${names[@]}"; do
	[[ -z $n || $n == none ]] && continue
	match=()
	for d in "$repo"/lessons/"$n" "$repo"/lessons/"$n"_*; do
		[[ -f $d/solution.ipynb ]] && match+=("$(basename "$d")")
	done
	case ${#match[@]} in
	1) released+=("${match[0]}") ;;
	0) die "--release-solutions: no assignment $n with a solution.ipynb under $repo/lessons" ;;
	*) die "--release-solutions: $n names several assignments (${match[*]}): name the folder" ;;
	esac
done

dest=$(mkdir -p "$dest" && cd "$dest" && pwd)
[[ $dest != "$repo" ]] || die "the release cannot be the repository itself"
if [[ -n $(ls -A "$dest") && ! -f $dest/.student-release ]]; then
	die "$dest is not empty and is not a previous release: give an empty or new folder"
fi
find "$dest" -mindepth 1 -delete

excludes=(--exclude=./.git --exclude=./bin --exclude=./.venv --exclude=./scripts/requirements/node_modules
	--exclude=./_site --exclude=./.site-work --exclude=./scripts/site/node_modules --exclude=./my-lessons
	--exclude=.ipynb_checkpoints --exclude=./lessons/assign
	--exclude='./lessons/*/source.ipynb' --exclude='./lessons/*/*_source.ipynb')
# A release inside the repository is not copied into itself.
[[ $dest == "$repo"/* ]] && excludes+=("--exclude=./${dest#"$repo"/}")
tar -C "$repo" "${excludes[@]}" -cf - . | tar -C "$dest" -xf -

# Solutions: only the released ones stay.
while IFS= read -r -d '' f; do
	dir=$(basename "$(dirname "$f")")
	keep=0
	for r in "${released[@]}"; do [[ $r == "$dir" ]] && keep=1; done
	[[ $keep == 1 ]] || rm -f "$f"
done < <(find "$dest/lessons" -mindepth 2 -maxdepth 2 \( -name solution.ipynb -o -name '*_solution.ipynb' \) -print0)

# The released solutions are also let into an image built from the release
# (its .dockerignore leaves out every solution.ipynb).
for r in "${released[@]}"; do
	[[ -f $dest/.dockerignore ]] && printf '!lessons/%s/solution.ipynb\n' "$r" >>"$dest/.dockerignore"
done

# The check: no line opening a solution or hidden tests in any file (in a
# notebook's JSON the line is a string, its opening quote and tabs before the
# marker, anywhere on a line of the file), but for the solutions of a released solution.ipynb.
line='(^|")[[:space:]]*(\\t|[[:space:]])*//[[:space:]]*BEGIN[[:space:]]+'
answer='(^|")[[:space:]]*<!--[[:space:]]*BEGIN[[:space:]]+SOLUTION[[:space:]]*-->'
bad=$( (grep -rlE "${line}(SOLUTION|HIDDEN[[:space:]]+TESTS)" "$dest"; grep -rlE "$answer" "$dest") | LC_ALL=C sort -u || true)
for r in "${released[@]}"; do
	bad=$(grep -vxF "$dest/lessons/$r/solution.ipynb" <<<"$bad" || true)
	if grep -qE "${line}HIDDEN[[:space:]]+TESTS" "$dest/lessons/$r/solution.ipynb"; then
		bad+=$'\n'"$dest/lessons/$r/solution.ipynb (hidden tests: generate it without -hidden)"
	fi
done
bad=$(sed '/^$/d' <<<"$bad")
if [[ -n $bad ]]; then
	find "$dest" -mindepth 1 -delete
	die "these files would hand students solutions or hidden tests; nothing was released:
$bad"
fi
{
	echo "# The student release of the perceptron lessons (scripts/student-release.sh)."
	echo "released_solutions=${released[*]}"
} >"$dest/.student-release"

if [[ -n $branch ]]; then
	# A commit of the release's tree on BRANCH, made with a temporary index
	# so that the work tree and its index are left alone.
	git -C "$repo" check-ref-format --branch "$branch" >/dev/null || die "$branch is not a valid branch name"
	idx=$(mktemp)
	trap 'rm -f "$idx"' EXIT
	rm -f "$idx"
	gitdir=$(git -C "$repo" rev-parse --absolute-git-dir)
	tree=$(cd "$dest" && export GIT_DIR=$gitdir GIT_INDEX_FILE=$idx GIT_WORK_TREE=$dest &&
		git add -A . >/dev/null && git write-tree)
	parent=()
	if git -C "$repo" rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		parent=(-p "refs/heads/$branch")
		if [[ $(git -C "$repo" rev-parse "refs/heads/$branch^{tree}") == "$tree" ]]; then
			echo "student-release: $dest; branch $branch already holds it"
			exit 0
		fi
	fi
	src=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "work tree")
	commit=$(git -C "$repo" commit-tree "$tree" "${parent[@]}" -m "Student release of $src (released solutions: ${released[*]:-none})")
	git -C "$repo" update-ref "refs/heads/$branch" "$commit"
	echo "student-release: $dest; committed as branch $branch ($commit): git push origin $branch"
else
	echo "student-release: $dest (released solutions: ${released[*]:-none})"
fi
