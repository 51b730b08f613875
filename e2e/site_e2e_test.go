//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/perceptron-go/lessons/internal/repo"
)

var (
	siteDir     = flag.String("site.dir", "", "a site that scripts/site.sh built, for TestSite to check instead of building one (its hub link must then point at -site.hub)")
	siteHub     = flag.String("site.hub", "", "with -site.dir: the hub address (http://127.0.0.1:PORT) the site was built with")
	siteTimeout = flag.Duration("site.timeout", 25*time.Minute, "time limit for TestSite's build of the site (about 4 minutes on 2 idle cores: it draws every frame of the live figures)")
)

// siteLesson is the lesson TestSite reads: math, figures and a live figure
// with two sliders and a choice.
const siteLesson = "notebooks/04_batch_pla.ipynb"

// TestSite builds the web site with its one command (bash scripts/site.sh,
// with a configuration whose class hub is a server of the test) and opens
// lesson 04 in Chromium from the file, as a reader with no internet would:
// the math is rendered (KaTeX: no raw $ left in the text, no KaTeX error);
// every figure has the alt text the notebook gives it; the live figure's
// first slider moves with the keyboard (→, End, Home) and the figure and
// its caption change to the frame of the new value, an image that loads;
// its choice moves with the arrow keys too; the launch links have Binder's
// and nbgitpuller's formats, and following the hub link reaches the hub
// with the repository, branch and lesson of the configuration; the worked
// solution is collapsed; the search finds another lesson; the dark theme
// switches; at 375 px wide nothing is wider than the screen. A static
// server serves the same page with its math rendered.
func TestSite(t *testing.T) {
	chromium, err := exec.LookPath(*browserChromium)
	if err != nil {
		t.Fatalf("site test: no Chromium (%s): %v; %s", *browserChromium, err, browserSetupHint)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}

	// The class hub: it records what a followed hub link asks for.
	var hubURL string
	hubHits := make(chan *url.URL, 4)
	hub := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case hubHits <- r.URL:
		default:
		}
		fmt.Fprintln(w, "the test's hub")
	})}
	var ln net.Listener
	if *siteDir != "" {
		u, err := url.Parse(*siteHub)
		if err != nil || u.Host == "" {
			t.Fatalf("-site.dir needs -site.hub, the hub address the site was built with")
		}
		ln, err = net.Listen("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		hubURL = *siteHub
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hubURL = "http://" + ln.Addr().String()
	}
	go hub.Serve(ln)
	t.Cleanup(func() { hub.Close() })

	const hubRepo = "https://git.example.org/course/lessons-students"
	site := *siteDir
	if site == "" {
		tmp := t.TempDir()
		cfg := filepath.Join(tmp, "site.yaml")
		conf := "binder:\n  repository: perceptron-go/lessons\n  ref: main\nhub:\n  url: " + hubURL + "\n  repository: " + hubRepo + "\n  branch: main\n"
		if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		site = filepath.Join(tmp, "site")
		ctx, cancel := context.WithTimeout(context.Background(), *siteTimeout)
		defer cancel()
		t0 := time.Now()
		cmd := exec.CommandContext(ctx, "bash", "scripts/site.sh", "--config", cfg, "--out", site)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash scripts/site.sh: %v\n%s", err, repo.Tail(string(out), 40))
		}
		t.Logf("scripts/site.sh built the site in %.0f s:\n%s", time.Since(t0).Seconds(), repo.Tail(string(out), 8))
	}
	committed := readCommittedAlts(t, filepath.Join(root, siteLesson))
	page := strings.TrimSuffix(filepath.Base(siteLesson), ".ipynb") + ".html"
	for _, f := range []string{"index.html", page, "search-index.js", "site.js", "katex/katex.min.js", "katex/contrib/auto-render.min.js"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("the site has no %s: %v", f, err)
		}
	}

	shots := shotsDir(t, "site")
	// shot saves a screenshot of the live figure's cell.
	shot := func(ctx context.Context, name string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { document.querySelector('p.plots-explore-caption[data-live-ready]').closest('.cell').id = 'site-test-live'; return true; })()`)); err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			return
		}
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#site-test-live")))
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			return
		}
		savePNG(t, filepath.Join(shots, "site-"+name+".png"), png)
	}

	bctx := startChromium(t, browserContext(t), chromium)
	tab, cancelTab := chromedp.NewContext(bctx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(tab, 3*time.Minute)
	defer cancel()
	fileURL := (&url.URL{Scheme: "file", Path: filepath.Join(site, page)}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL), waitReady()); err != nil {
		t.Fatalf("open %s: %v: within 30 s, no math rendered (KaTeX) or a live figure without its controls", fileURL, err)
	}
	checkMath(t, ctx, fileURL, 10)

	// Alt text: every figure has the notebook's own.
	alts := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('article img')).map(i => i.getAttribute('alt') || '')`)
	if len(alts) == 0 || !slices.Equal(alts, committed) {
		t.Errorf("the page's figures have the alt texts %q, want the notebook's %q", alts, committed)
	}

	// The live figure: keyboard on its last slider, then on its choice.
	type liveState struct {
		Src, Caption, Values, Alt string
		Value                     string
		Complete                  bool
		Width                     int
		Labels                    []string
		Start                     int
		ID                        string
	}
	const liveJS = `(() => {
		const cap = document.querySelector('p.plots-explore-caption[data-live-ready]');
		const fig = JSON.parse(document.getElementById(cap.dataset.live).textContent);
		const img = cap.parentElement.parentElement.querySelector('img');
		const inputs = document.querySelectorAll('.live-controls input[type=range]');
		const input = inputs[inputs.length - 1];
		const i = fig.controls.findIndex(c => c.name === input.dataset.control);
		return {src: img.getAttribute('src'), caption: cap.textContent, values: cap.dataset.values, alt: img.alt,
			value: input.value, id: input.id, complete: img.complete, width: img.naturalWidth, labels: fig.controls[i].labels, start: fig.controls[i].start};
	})()`
	live := func(what string) liveState {
		t.Helper()
		var s liveState
		// Wait for the frame's image to load.
		deadline := time.Now().Add(10 * time.Second)
		for {
			s = eval[liveState](t, ctx, liveJS)
			if s.Complete || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !s.Complete || s.Width == 0 {
			t.Errorf("%s: the figure %s did not load (a frame missing from the site?)", what, s.Src)
		}
		return s
	}
	start := live("the live figure at its start")
	if len(start.Labels) < 3 {
		t.Fatalf("the slider has %d positions: %q", len(start.Labels), start.Labels)
	}
	if start.Value != fmt.Sprint(start.Start) || !strings.HasPrefix(start.Alt, committed[liveImageIndex(t, alts, start.Alt)]) {
		t.Errorf("the live figure starts at position %s with alt %q, want position %d and the notebook's alt", start.Value, start.Alt, start.Start)
	}
	name := eval[string](t, ctx, `document.getElementById(`+strconvQuote(start.ID)+`).dataset.control`)
	key := func(k, keyName string, wantPos int) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#"+start.ID)), chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
		s := live("after a key")
		want := name + " = " + start.Labels[wantPos]
		if s.Value != fmt.Sprint(wantPos) || !strings.Contains(s.Values, want) {
			t.Errorf("after the key %s the slider is at %s with values %q, want position %d (%s)", keyName, s.Value, s.Values, wantPos, want)
		}
		if wantPos != start.Start && s.Src == start.Src {
			t.Errorf("after the key %s (%s): figure %s, the same as at the start: the figure did not change", keyName, s.Values, s.Src)
		}
		// Each frame has its own alt text (the lesson's describes the frame
		// shown, naming the slider's value); back at the start, the
		// notebook's.
		if wantPos == start.Start && s.Alt != start.Alt || wantPos != start.Start && (s.Alt == "" || s.Alt == start.Alt || !strings.Contains(s.Alt, start.Labels[wantPos])) {
			t.Errorf("after the key %s the alt text is %q: want the frame's own, which names %s (the start's is %q)", keyName, s.Alt, start.Labels[wantPos], start.Alt)
		}
	}
	shot(ctx, "live-start")
	key(kb.ArrowRight, "→", start.Start+1)
	shot(ctx, "live-moved")
	key(kb.End, "End", len(start.Labels)-1)
	key(kb.Home, "Home", 0)

	var choice struct {
		Before, After string
		Caption       [2]string
	}
	const selectJS, captionJS = `document.querySelector('.live-controls select').value`, `document.querySelector('p.plots-explore-caption[data-live-ready]').textContent`
	choice.Before, choice.Caption[0] = eval[string](t, ctx, selectJS), eval[string](t, ctx, captionJS)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`.live-controls select`)), chromedp.KeyEvent(kb.ArrowDown)); err != nil {
		t.Fatal(err)
	}
	choice.After, choice.Caption[1] = eval[string](t, ctx, selectJS), eval[string](t, ctx, captionJS)
	if choice.After == choice.Before || choice.Caption[0] == choice.Caption[1] {
		t.Errorf("↓ on the choice: option %s → %s, caption %q → %q; want the next option and its frame", choice.Before, choice.After, choice.Caption[0], choice.Caption[1])
	}

	// Worked solutions are collapsed.
	solutions := eval[[]bool](t, ctx, `Array.from(document.querySelectorAll('details.exercise-solution')).map(d => d.open)`)
	if len(solutions) == 0 || slices.Contains(solutions, true) {
		t.Errorf("worked solutions (details.exercise-solution) open: %v; want at least one, all collapsed", solutions)
	}

	// The launch links.
	var links struct{ Binder, Hub string }
	links.Binder = eval[string](t, ctx, `document.querySelector('a.launch-binder').href`)
	links.Hub = eval[string](t, ctx, `document.querySelector('a.launch-hub').href`)
	b, err := url.Parse(links.Binder)
	if err != nil || b.Scheme != "https" || b.Host != "mybinder.org" || b.Path != "/v2/gh/perceptron-go/lessons/main" || b.Query().Get("labpath") != siteLesson {
		t.Errorf("Binder link %s: want https://mybinder.org/v2/gh/perceptron-go/lessons/main?labpath=%s", links.Binder, url.QueryEscape(siteLesson))
	}
	if _, err := os.Stat(filepath.Join(root, b.Query().Get("labpath"))); err != nil {
		t.Errorf("Binder link's labpath: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`a.launch-hub`))); err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-hubHits:
		q := u.Query()
		if u.Path != "/hub/user-redirect/git-pull" || q.Get("repo") != hubRepo || q.Get("branch") != "main" || q.Get("urlpath") != "lab/tree/lessons-students/"+siteLesson {
			t.Errorf("the hub link (%s) reached the hub as %s: want nbgitpuller's /hub/user-redirect/git-pull?repo=%s&branch=main&urlpath=lab/tree/lessons-students/%s", links.Hub, u, hubRepo, siteLesson)
		}
	case <-time.After(20 * time.Second):
		t.Errorf("following the hub link %s never reached the hub", links.Hub)
	}

	// Search, theme and a phone's width, on the page again.
	// The tab may still be loading the hub's page: its old page's
	// JavaScript context goes away under an action, so try again.
	var themes, bg [2]string
	for try := 1; ; try++ {
		err := chromedp.Do(ctx, chromedp.Navigate(fileURL), waitReady(), chromedp.SendKeys(chromedp.CSS(`#search-input`), "pocket"))
		if err == nil {
			break
		}
		if try == 5 {
			t.Fatalf("back to %s after the hub: %v", fileURL, err)
		}
		time.Sleep(time.Second)
	}
	found := eval[[]string](t, ctx, `Array.from(document.querySelectorAll('#search-results a')).map(a => a.getAttribute('href'))`)
	const themeJS, bgJS = `document.documentElement.dataset.theme`, `getComputedStyle(document.body).backgroundColor`
	themes[0], bg[0] = eval[string](t, ctx, themeJS), eval[string](t, ctx, bgJS)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.theme-toggle`))); err != nil {
		t.Fatal(err)
	}
	themes[1], bg[1] = eval[string](t, ctx, themeJS), eval[string](t, ctx, bgJS)
	shot(ctx, "live-"+themes[1])
	if !slices.ContainsFunc(found, func(h string) bool { return strings.HasPrefix(h, "06_pocket.html") }) {
		t.Errorf("searching for \"pocket\" found %q, want lesson 06", found)
	}
	if themes[0] == themes[1] || bg[0] == bg[1] {
		t.Errorf("the theme button: theme %s → %s, background %s → %s; want the other theme", themes[0], themes[1], bg[0], bg[1])
	}
	type narrowState struct {
		Width, Scroll int
		Wide          []string
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 800), chromedp.Navigate(fileURL), waitReady()); err != nil {
		t.Fatal(err)
	}
	shot(ctx, "live-375px")
	narrow := eval[narrowState](t, ctx, `({width: window.innerWidth, scroll: document.documentElement.scrollWidth,
		wide: Array.from(document.querySelectorAll('main img, main .live-controls')).filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + ' ' + (e.getAttribute('src') || e.className))})`)
	if narrow.Width != 375 || narrow.Scroll > narrow.Width || len(narrow.Wide) > 0 {
		t.Errorf("at 375 px: window %d px, page %d px wide, wider than the screen: %q", narrow.Width, narrow.Scroll, narrow.Wide)
	}

	// A static server: the same page, its math rendered.
	srv := &http.Server{Handler: http.FileServer(http.Dir(site))}
	sl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(sl)
	defer srv.Close()
	httpURL := "http://" + sl.Addr().String() + "/" + page
	if err := chromedp.Do(ctx, chromedp.Navigate(httpURL), waitReady()); err != nil {
		t.Fatalf("open %s: %v: within 30 s, no math rendered (KaTeX) or a live figure without its controls", httpURL, err)
	}
	checkMath(t, ctx, httpURL, 10)

	// Every lesson's math, from the static server.
	pages, err := filepath.Glob(filepath.Join(site, "[0-9][0-9]_*.html"))
	if err != nil || len(pages) < 11 {
		t.Fatalf("the site has %d lesson pages (%v), want 11", len(pages), err)
	}
	for _, p := range pages {
		u := "http://" + sl.Addr().String() + "/" + filepath.Base(p)
		if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.Poll[chromedp.Void](`document.readyState === 'complete'`)); err != nil {
			t.Fatalf("open %s: %v", u, err)
		}
		checkMath(t, ctx, u, 0)
	}
}

// eval evaluates a JavaScript expression in the tab and decodes its value.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	return v
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// waitReady waits until the page's math is rendered and its live figures
// have their controls.
func waitReady() chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`document.querySelector('.katex') !== null && document.querySelectorAll('p.plots-explore-caption[data-live]').length === document.querySelectorAll('p.plots-explore-caption[data-live-ready]').length`, chromedp.WithPollingTimeout(30*time.Second))
}

// checkMath checks that the page's math is rendered: KaTeX elements, no
// KaTeX error, and no $ left in the text outside code, outputs (a live
// figure's caption is one), the rendered math itself and the dollars the
// markdown escapes (k\$).
func checkMath(t *testing.T, ctx context.Context, where string, minFormulas int) {
	t.Helper()
	type mathState struct {
		Katex, Errors int
		Raw           []string
	}
	m := eval[mathState](t, ctx, `(() => {
		const raw = [];
		const walk = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
		for (let n = walk.nextNode(); n; n = walk.nextNode()) {
			if (n.parentElement.closest('pre, code, script, .katex, .literal-dollar, .plots-explore-caption') === null && n.textContent.includes('$')) raw.push(n.textContent.trim().slice(0, 80));
		}
		return {katex: document.querySelectorAll('article .katex').length, errors: document.querySelectorAll('.katex-error').length, raw: raw};
	})()`)
	if m.Katex < minFormulas || m.Errors > 0 || len(m.Raw) > 0 {
		t.Errorf("%s: %d formulas rendered, %d KaTeX errors, raw $ left in %q; want the math rendered", where, m.Katex, m.Errors, m.Raw)
	}
}

var altOf = regexp.MustCompile(`<img\b[^>]*\balt="([^"]*)"`)

// readCommittedAlts returns the alt text of every figure a notebook's
// outputs show, in order.
func readCommittedAlts(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	var alts []string
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			raw, ok := o.Data["text/html"]
			if !ok {
				continue
			}
			var s string
			var parts []string
			if json.Unmarshal(raw, &s) != nil {
				if err := json.Unmarshal(raw, &parts); err != nil {
					t.Fatal(err)
				}
				s = strings.Join(parts, "")
			}
			for _, m := range altOf.FindAllStringSubmatch(s, -1) {
				alts = append(alts, html.UnescapeString(m[1]))
			}
		}
	}
	return alts
}

// liveImageIndex is the index of the live figure's image among the page's.
func liveImageIndex(t *testing.T, alts []string, alt string) int {
	t.Helper()
	for i, a := range alts {
		if strings.HasPrefix(alt, a) {
			return i
		}
	}
	t.Fatalf("the live figure's alt %q is none of the page's", alt)
	return 0
}
