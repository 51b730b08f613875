package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// liveFigure is one live figure as a page gets it: the controls (every
// position), the distinct frames (an image file and its caption, or an
// error), and for each combination of positions in row-major order (the
// last control varies fastest) the index of its frame.
type liveFigure struct {
	Alt      string      `json:"alt"`
	Controls []control   `json:"controls"`
	Frames   []pageFrame `json:"frames"`
	Index    []int       `json:"index"`
	start    pageFrame   // the frame of the starting positions
	values   string      // the starting values, "name = value, ..."
}

// control is one control of a live figure, as view.ExportedControl writes
// it: its name, the label of every position, the starting position, and
// whether it is a choice.
type control struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
	Start  int      `json:"start"`
	Choice bool     `json:"choice"`
}

type pageFrame struct {
	Src     string `json:"src,omitempty"`
	Caption string `json:"caption"`
	Alt     string `json:"alt,omitempty"` // the frame's own alt text (ExploreAlt, StepperAlt)
	Error   string `json:"error,omitempty"`
}

// exportedFigure is what a live program writes for one figure and shard.
type exportedFigure struct {
	Alt      string           `json:"alt"`
	Controls []control        `json:"controls"`
	Frames   []*exportedFrame `json:"frames"`
}

// exportedFrame is one combination of positions as a live program writes
// it: the PNG's file name, the caption, the frame's alt text, the values,
// or the render's error.
type exportedFrame struct {
	PNG     string `json:"png"`
	Caption string `json:"caption"`
	Alt     string `json:"alt"`
	Values  string `json:"values"`
	Error   string `json:"error"`
}

// drawLiveFigures builds the live programs of the notebooks in work (a
// folder inside the module), runs each in shards processes, at most jobs
// at a time, with the PNG files going to work/frames, and returns each
// notebook's live figures in the order of its cells.
//
// With a cache folder, a program whose binary is the one of an earlier
// build (Go's builds are reproducible: the same cells, packages and Go give
// the same bytes) takes that build's frames from the cache instead of
// drawing them again: the frames are a function of the program alone (the
// lessons' data are embedded in it, and their randomness seeded).
// The cache keeps the frames of the last build only.
func drawLiveFigures(ctx context.Context, repo, work, cache string, progs []*liveProgram, shards, jobs int, logf func(string, ...any)) (map[string][]*liveFigure, error) {
	if len(progs) == 0 {
		return nil, nil
	}
	framesDir := filepath.Join(work, "frames")
	if err := os.MkdirAll(framesDir, 0o755); err != nil {
		return nil, err
	}
	bin := filepath.Join(work, "bin")
	args := []string{"build", "-trimpath", "-o", bin + string(filepath.Separator)}
	for i, p := range progs {
		dir := filepath.Join(work, fmt.Sprintf("live%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), p.main, 0o644); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "site_export.go"), p.hook, 0o644); err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(repo, dir)
		if err != nil {
			return nil, err
		}
		args = append(args, "./"+filepath.ToSlash(rel))
	}
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build of the live cells' programs (in %s): %v\n%s", work, err, out)
	}
	logf("site: built the programs of %d notebooks' live cells in %.1f s", len(progs), time.Since(t0).Seconds())

	// The cache: one folder per program binary, named by its SHA-256.
	keys := make([]string, len(progs))
	cached := make([]bool, len(progs))
	for i := range progs {
		b, err := os.ReadFile(filepath.Join(bin, fmt.Sprintf("live%02d", i)))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		keys[i] = hex.EncodeToString(sum[:])
		if cache == "" {
			continue
		}
		c := filepath.Join(cache, keys[i])
		if _, err := os.Stat(filepath.Join(c, "complete")); err == nil {
			if err := os.CopyFS(filepath.Join(work, fmt.Sprintf("out%02d", i)), os.DirFS(filepath.Join(c, "figures"))); err != nil {
				return nil, err
			}
			if err := copyDir(filepath.Join(c, "frames"), framesDir); err != nil {
				return nil, err
			}
			cached[i] = true
			logf("site: %s: its live figures' frames from the cache (%s)", progs[i].notebook, c)
		}
	}

	type job struct{ prog, shard int }
	var todo []job
	for i := range progs {
		for s := range shards {
			if !cached[i] {
				todo = append(todo, job{i, s})
			}
		}
	}
	errs := make([]error, len(todo))
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	t0 = time.Now()
	for k, j := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out := filepath.Join(work, fmt.Sprintf("out%02d", j.prog))
			if err := os.MkdirAll(out, 0o755); err != nil {
				errs[k] = err
				return
			}
			cmd := exec.CommandContext(ctx, filepath.Join(bin, fmt.Sprintf("live%02d", j.prog)))
			cmd.Dir = filepath.Dir(filepath.Join(repo, progs[j.prog].notebook)) // as GoNB: the notebook's folder
			cmd.Env = append(os.Environ(), "LESSONS_SITE_FRAMES="+framesDir, "LESSONS_SITE_FIGURES="+out,
				"LESSONS_SITE_SHARD="+strconv.Itoa(j.shard), "LESSONS_SITE_SHARDS="+strconv.Itoa(shards))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				errs[k] = fmt.Errorf("%s: running its live cells (shard %d of %d): %v\n%s", progs[j.prog].notebook, j.shard, shards, err, stderr.Bytes())
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	figs, err := readFigures(work, progs)
	if err != nil {
		return nil, err
	}
	frames := 0
	for _, fs := range figs {
		for _, f := range fs {
			frames += len(f.Frames)
		}
	}
	if len(todo) > 0 {
		logf("site: drew every position of the live figures (%d distinct frames) in %.1f s (%d processes, %d at a time)", frames, time.Since(t0).Seconds(), len(todo), jobs)
	}
	if cache != "" {
		if err := saveCache(cache, work, framesDir, progs, keys, cached, figs); err != nil {
			logf("site: the frames' cache (%s): %v", cache, err)
		}
	}
	return figs, nil
}

// saveCache keeps the frames of the programs just run in the cache, and
// removes the entries this build did not use.
func saveCache(cache, work, framesDir string, progs []*liveProgram, keys []string, cached []bool, figs map[string][]*liveFigure) error {
	used := map[string]bool{}
	for i, p := range progs {
		used[keys[i]] = true
		if cached[i] {
			continue
		}
		c := filepath.Join(cache, keys[i])
		if err := os.RemoveAll(c); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(c, "frames"), 0o755); err != nil {
			return err
		}
		if err := os.CopyFS(filepath.Join(c, "figures"), os.DirFS(filepath.Join(work, fmt.Sprintf("out%02d", i)))); err != nil {
			return err
		}
		if err := copyFrames(framesDir, filepath.Join(c, "frames"), map[string][]*liveFigure{p.notebook: figs[p.notebook]}); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(c, "complete"), nil, 0o644); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !used[e.Name()] {
			if err := os.RemoveAll(filepath.Join(cache, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyDir copies the files of a folder into another.
func copyDir(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readFigures reads and merges the figures the live programs wrote (each
// figure's shards: figure-N-shard-S.json).
func readFigures(work string, progs []*liveProgram) (map[string][]*liveFigure, error) {
	figs := map[string][]*liveFigure{}
	for i, p := range progs {
		dir := filepath.Join(work, fmt.Sprintf("out%02d", i))
		for n := 0; ; n++ {
			names, err := filepath.Glob(filepath.Join(dir, fmt.Sprintf("figure-%d-shard-*.json", n)))
			if err != nil {
				return nil, err
			}
			if len(names) == 0 {
				break
			}
			var parts []*exportedFigure
			for s := range len(names) {
				b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("figure-%d-shard-%d.json", n, s)))
				if err != nil {
					return nil, fmt.Errorf("%s: live figure %d: %w", p.notebook, n, err)
				}
				var f exportedFigure
				if err := json.Unmarshal(b, &f); err != nil {
					return nil, fmt.Errorf("%s: live figure %d, shard %d: %w", p.notebook, n, s, err)
				}
				parts = append(parts, &f)
			}
			fig, err := mergeShards(parts)
			if err != nil {
				return nil, fmt.Errorf("%s: live figure %d: %w", p.notebook, n, err)
			}
			figs[p.notebook] = append(figs[p.notebook], fig)
		}
	}
	return figs, nil
}

// copyFrames copies the frames the figures show from one folder to another.
func copyFrames(from, to string, figs map[string][]*liveFigure) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, fs := range figs {
		for _, f := range fs {
			for _, fr := range f.Frames {
				if fr.Src == "" {
					continue
				}
				b, err := os.ReadFile(filepath.Join(from, fr.Src))
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(to, fr.Src), b, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// mergeShards joins the shards of one figure, keeps each distinct frame
// once and indexes them.
func mergeShards(parts []*exportedFigure) (*liveFigure, error) {
	first := parts[0]
	fig := &liveFigure{Alt: first.Alt, Controls: first.Controls, Index: make([]int, len(first.Frames))}
	seen := map[pageFrame]int{}
	start := 0
	for _, c := range first.Controls {
		start = start*len(c.Labels) + c.Start
	}
	for i := range first.Frames {
		var got []*exportedFrame
		for _, p := range parts {
			if len(p.Frames) != len(first.Frames) {
				return nil, fmt.Errorf("the shards disagree on the number of combinations: %d and %d", len(first.Frames), len(p.Frames))
			}
			if p.Frames[i] != nil {
				got = append(got, p.Frames[i])
			}
		}
		if len(got) != 1 {
			return nil, fmt.Errorf("combination %d drawn by %d shards, want 1", i, len(got))
		}
		f := got[0]
		pf := pageFrame{Caption: f.Caption, Alt: f.Alt, Error: f.Error}
		if f.PNG != "" {
			pf.Src = f.PNG
		}
		k, ok := seen[pf]
		if !ok {
			k = len(fig.Frames)
			seen[pf] = k
			fig.Frames = append(fig.Frames, pf)
		}
		fig.Index[i] = k
		if i == start {
			fig.start, fig.values = pf, f.Values
		}
	}
	return fig, nil
}
