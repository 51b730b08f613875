# lessons-sync.sh: lessons_sync SRC DEST FIRST [LIST] makes DEST a copy of
# the files under SRC (or, with LIST, of the files LIST names, one ./path a
# line, relative to SRC), or brings new and changed files into a copy DEST
# already has without touching what its owner changed. Two commands use it:
# perceptron-lessons-init (a class server's per-user copy, SRC the shared
# install's lessons) and scripts/lessons.sh (a clone's git-ignored working
# copy, SRC the clone). The caller defines say MESSAGE, which prints one
# line with its own name. FIRST is 1 for a first copy (the files it adds
# are not listed one by one), else 0.
#
# DEST/.perceptron-lessons-copied records the SHA-256 of every file as it
# was last copied. For each file of SRC:
#   - a file DEST does not have is added (unless it was copied before and
#     has not changed since: a file the student deleted stays deleted);
#   - a file the student never edited (its hash is the recorded one) is
#     replaced by the new version;
#   - a file the student edited is kept, and the new version is written
#     beside it as NAME.updated-YYYY-MM-DD.EXT (for example
#     04_batch_pla.updated-2026-11-25.ipynb), with a message saying so; so is
#     a file that differs in a copy made before the record existed. A Go
#     file's new version is NAME.go.updated-YYYY-MM-DD instead: a second
#     .go file beside the student's would redeclare its names and break the
#     package's build.
# Files SRC no longer has are left in DEST. It sets lessons_sync_added to
# the number of files it added or replaced.
lessons_sync() {
	_src=$1 _dest=$2 _first=$3 _list=${4:-}
	mkdir -p "$_dest"
	_dest=$(cd "$_dest" && pwd)
	_record="$_dest/.perceptron-lessons-copied"
	_work=$(mktemp -d "${TMPDIR:-/tmp}/lessons-sync.XXXXXX")
	touch "$_record"

	# SRC's files and their hashes, and the hashes of those DEST has.
	if [ -n "$_list" ]; then
		LC_ALL=C sort "$_list" >"$_work/files"
	else
		(cd "$_src" && find . -type f | LC_ALL=C sort >"$_work/files")
	fi
	(cd "$_src" && tr '\n' '\0' <"$_work/files" | xargs -0 -r sha256sum >"$_work/new")
	(cd "$_dest" && while IFS= read -r f; do if [ -f "$f" ]; then printf '%s\0' "$f"; fi; done <"$_work/files" | xargs -0 -r sha256sum >"$_work/have")

	# One action per file: add, replace or beside (the hashes: recorded,
	# new, DEST's). Lines of sha256sum's output are HASH, two spaces, the
	# path.
	awk -v recfile="$_record" -v havefile="$_work/have" '
		BEGIN {
			while ((getline l < recfile) > 0) rec[substr(l, 67)] = substr(l, 1, 64)
			while ((getline l < havefile) > 0) have[substr(l, 67)] = substr(l, 1, 64)
		}
		{
			f = substr($0, 67); s = substr($0, 1, 64)
			if (rec[f] == s) next                   # unchanged in SRC
			if (!(f in have)) print "add " f
			else if (have[f] == s) next             # already the new version
			else if (f in rec && have[f] == rec[f]) print "replace " f
			else print "beside " f
		}' "$_work/new" >"$_work/actions"

	_today=$(date +%Y-%m-%d)
	lessons_sync_added=0
	if [ $_first = 1 ] && [ -z "$_list" ] && [ -s "$_work/actions" ] && ! grep -qv '^add ' "$_work/actions"; then
		# A first copy into a folder holding none of the files: one cp of
		# the whole tree rather than one per file (a class logging in at
		# once starts hundreds of servers' worth of processes otherwise).
		cp -R "$_src/." "$_dest/"
		chmod -R u+w "$_dest"
		lessons_sync_added=$(wc -l <"$_work/actions")
		: >"$_work/actions"
	fi
	while IFS= read -r line; do
		action=${line%% *}
		f=${line#* }
		rel=${f#./}
		case $action in
		add | replace)
			mkdir -p "$_dest/$(dirname "$rel")"
			cp "$_src/$rel" "$_dest/$rel.tmp-init"
			chmod u+w "$_dest/$rel.tmp-init"
			mv -f "$_dest/$rel.tmp-init" "$_dest/$rel"
			if [ "$action" = replace ]; then
				say "updated $rel (you had not changed it)"
			elif [ $_first = 0 ]; then
				say "added $rel"
			fi
			lessons_sync_added=$((lessons_sync_added + 1))
			;;
		beside)
			# The new version's name: $pre<date>[-n]$post.
			case $(basename "$rel") in
			?*.go) pre=$rel.updated- post= ;;
			?*.*) pre=${rel%.*}.updated- post=.${rel##*.} ;;
			*) pre=$rel.updated- post= ;;
			esac
			other="$pre$_today$post"
			n=2
			# A file of that name the student has changed is not overwritten.
			while [ -e "$_dest/$other" ] && ! cmp -s "$_dest/$other" "$_src/$rel"; do
				other="$pre$_today-$n$post"
				n=$((n + 1))
			done
			cp "$_src/$rel" "$_dest/$other"
			chmod u+w "$_dest/$other"
			say "kept your edited $rel; its new version is beside it: $other"
			;;
		esac
	done <"$_work/actions"
	cp "$_work/new" "$_record.tmp"
	mv -f "$_record.tmp" "$_record"
	rm -rf "$_work"
}
