// Command site builds the lessons' web site: a static site of the executed
// lessons (notebooks/*.ipynb as committed) that a browser opens from a file
// or from any static server, with no internet and no kernel. Run it with
// scripts/site.sh, which installs what it needs first; see that script for
// what the site holds.
//
// Why nbconvert and not Jupyter Book 2 / mystmd: mystmd's `myst build
// --html` fetches its web theme at build time (the default template,
// site/myst/book-theme, is looked up on api.mystmd.org and downloaded as a
// zip from GitHub), and that theme is not published on a package registry
// (its package, @myst-theme/book, is private), so it cannot be pinned and
// fails on a machine that reaches only the registries. nbconvert, pinned
// with its hashes in scripts/requirements/jupyter.txt, turns each notebook's cells
// into HTML with a template of our own (scripts/site/template); this
// command adds the pages around them (table of contents, search, launch
// links, themes), the live figures, and KaTeX, pinned in
// scripts/site/package-lock.json and copied into the site, which renders
// the math in the browser.
//
// Usage (from the repository's folder):
//
//	go run ./scripts/site -python .venv/bin/python -katex scripts/site/node_modules/katex/dist -out _site
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"
)

func main() {
	log.SetFlags(0)
	repo := flag.String("repo", ".", "the repository's folder")
	out := flag.String("out", "_site", "the site's folder (made anew)")
	config := flag.String("config", "scripts/site/site.yaml", "the site's configuration: where the launch links go")
	python := flag.String("python", ".venv/bin/python", "a Python with nbconvert")
	katex := flag.String("katex", "scripts/site/node_modules/katex/dist", "KaTeX's dist folder")
	jobs := flag.Int("jobs", runtime.NumCPU(), "processes drawing the live figures at a time")
	cache := flag.String("cache", defaultCache(), "a folder that keeps the live figures' frames of the last build, for the next build of the same programs (\"\": none)")
	flag.Parse()
	if err := build(context.Background(), options{
		repo: *repo, out: *out, config: *config, python: *python, katex: *katex, jobs: max(1, *jobs), cache: *cache,
		logf: log.Printf,
	}); err != nil {
		log.Fatalf("site: %v", err)
	}
}

// defaultCache is the frames' cache in the user's cache folder, or "".
func defaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "perceptron-lessons", "site-frames")
}

type options struct {
	repo, out, config, python, katex string
	jobs                             int
	cache                            string
	logf                             func(string, ...any)
}

// build makes the site.
func build(ctx context.Context, o options) error {
	t0 := time.Now()
	repo, err := filepath.Abs(o.repo)
	if err != nil {
		return err
	}
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(repo, p)
	}
	cfg, err := readConfig(rel(o.config))
	if err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(repo, "notebooks", "*.ipynb"))
	if err != nil {
		return err
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return fmt.Errorf("no notebooks in %s", filepath.Join(repo, "notebooks"))
	}
	var nbs []*notebook
	var progs []*liveProgram
	for _, p := range paths {
		r, _ := filepath.Rel(repo, p)
		nb, err := readNotebook(p)
		if err != nil {
			return err
		}
		nb.Path = filepath.ToSlash(r)
		nbs = append(nbs, nb)
		prog, err := buildLiveProgram(nb)
		if err != nil {
			return err
		}
		if prog != nil {
			progs = append(progs, prog)
		}
	}
	outDir := rel(o.out)
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	work := filepath.Join(repo, ".site-work")
	if err := os.RemoveAll(work); err != nil {
		return err
	}
	defer os.RemoveAll(work)
	figs, err := drawLiveFigures(ctx, repo, work, o.cache, progs, o.jobs, o.jobs, o.logf)
	if err != nil {
		return err
	}
	if err := copyFrames(filepath.Join(work, "frames"), filepath.Join(outDir, "frames"), figs); err != nil {
		return err
	}
	if err := writeSite(ctx, siteInput{
		repo: repo, out: outDir, work: work, cfg: cfg, notebooks: nbs, figures: figs,
		python: rel(o.python), katex: rel(o.katex), logf: o.logf,
	}); err != nil {
		return err
	}
	o.logf("site: %d lessons in %s (%.0f s); open %s", len(nbs), outDir, time.Since(t0).Seconds(), filepath.Join(outDir, "index.html"))
	return nil
}
