package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

//go:embed template assets
var embedded embed.FS

// siteInput is everything writeSite needs.
type siteInput struct {
	repo, out, work string
	cfg             *config
	notebooks       []*notebook
	figures         map[string][]*liveFigure
	python, katex   string
	logf            func(string, ...any)
}

// heading is one heading of a page, for its table of contents.
type heading struct {
	Level int
	ID    string
	Text  string // plain text (math as written, $...$)
}

// page is one lesson's page.
type page struct {
	Name, Title, File string // 04_batch_pla, its title, 04_batch_pla.html
	Notebook          string // notebooks/04_batch_pla.ipynb
	Body              template.HTML
	Headings          []heading
	Goals             template.HTML // the learning goals' list, for the index
	Binder, Hub       string
	Prev, Next        *page
}

// writeSite converts the notebooks with nbconvert and writes the pages,
// the search index, the frames' and figures' files, the notebooks and
// KaTeX into s.out.
func writeSite(ctx context.Context, s siteInput) error {
	frags, err := convert(ctx, s)
	if err != nil {
		return err
	}
	var pages []*page
	for _, nb := range s.notebooks {
		p := &page{Name: nb.name(), Title: lessonTitle(nb.name(), nb.title()), File: nb.name() + ".html", Notebook: nb.Path,
			Binder: s.cfg.binderURL(nb.Path), Hub: s.cfg.hubURL(nb.Path)}
		body, err := processFragment(frags[nb.name()], nb, s)
		if err != nil {
			return err
		}
		p.Body = template.HTML(body)
		p.Headings = headings(body)
		p.Goals = template.HTML(learningGoals(body))
		pages = append(pages, p)
	}
	for i, p := range pages {
		if i > 0 {
			p.Prev = pages[i-1]
		}
		if i+1 < len(pages) {
			p.Next = pages[i+1]
		}
	}
	tmpl, err := template.New("").Funcs(template.FuncMap{"dict": dict}).ParseFS(embedded, "assets/*.html")
	if err != nil {
		return err
	}
	for _, p := range pages {
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, "lesson.html", map[string]any{"Site": s.cfg, "Page": p, "Pages": pages}); err != nil {
			return fmt.Errorf("%s: %w", p.File, err)
		}
		if err := os.WriteFile(filepath.Join(s.out, p.File), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, "index.html", map[string]any{"Site": s.cfg, "Pages": pages}); err != nil {
		return fmt.Errorf("index.html: %w", err)
	}
	if err := os.WriteFile(filepath.Join(s.out, "index.html"), b.Bytes(), 0o644); err != nil {
		return err
	}
	idx, err := searchIndex(pages)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.out, "search-index.js"), idx, 0o644); err != nil {
		return err
	}
	for _, name := range []string{"site.css", "site.js"} {
		b, err := embedded.ReadFile("assets/" + name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(s.out, name), b, 0o644); err != nil {
			return err
		}
	}
	if err := copyNotebooks(s); err != nil {
		return err
	}
	return copyKaTeX(s.katex, filepath.Join(s.out, "katex"))
}

var (
	lessonNumber = regexp.MustCompile(`^0*([0-9]+)_`)
	titleNumber  = regexp.MustCompile(`^[0-9]+\.\s+`)
)

// lessonTitle is a page's title: the lesson's number (from its file name,
// 04_batch_pla: 4), then its title without a number of its own.
func lessonTitle(name, title string) string {
	m := lessonNumber.FindStringSubmatch(name)
	if m == nil {
		return title
	}
	return m[1] + ". " + titleNumber.ReplaceAllString(title, "")
}

// dict makes a map of its arguments, key, value, ...: a template's
// argument to another.
func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: %d arguments, want pairs", len(kv))
	}
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
		}
		m[k] = kv[i+1]
	}
	return m, nil
}

// convert runs nbconvert once on every notebook with the site's template
// and returns each notebook's HTML fragment by name.
func convert(ctx context.Context, s siteInput) (map[string]string, error) {
	tdir := filepath.Join(s.work, "template")
	out := filepath.Join(s.work, "html")
	for _, d := range []string{tdir, out} {
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
	}
	if err := os.CopyFS(tdir, must(fs.Sub(embedded, "template"))); err != nil {
		return nil, err
	}
	args := []string{"-m", "nbconvert", "--to", "html", "--template", "site",
		"--TemplateExporter.extra_template_basedirs=" + tdir, "--output-dir", out, "--log-level", "WARN"}
	for _, nb := range s.notebooks {
		args = append(args, filepath.Join(s.repo, nb.Path))
	}
	t0 := time.Now()
	cmd := exec.CommandContext(ctx, s.python, args...)
	cmd.Dir = s.repo
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("nbconvert (%s -m nbconvert): %v\n%s", s.python, err, b)
	}
	s.logf("site: nbconvert converted %d notebooks in %.1f s", len(s.notebooks), time.Since(t0).Seconds())
	frags := map[string]string{}
	for _, nb := range s.notebooks {
		b, err := os.ReadFile(filepath.Join(out, nb.name()+".html"))
		if err != nil {
			return nil, err
		}
		frags[nb.name()] = string(b)
	}
	return frags, nil
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

var (
	dataImage  = regexp.MustCompile(`src="data:image/(png|jpeg|gif|svg\+xml);base64,([^"]*)"`)
	imgTag     = regexp.MustCompile(`<img\b[^>]*>`)
	altAttr    = regexp.MustCompile(`\balt="([^"]*)"`)
	liveCap    = regexp.MustCompile(`<p\b([^>]*\bclass="plots-explore-caption"[^>]*)>([^<]*)</p>`)
	idAttr     = regexp.MustCompile(`\bid="([^"]*)"`)
	valuesAttr = regexp.MustCompile(`\bdata-values="([^"]*)"`)
	hrefAttr   = regexp.MustCompile(`\bhref="([^"]*)"`)
	headingTag = regexp.MustCompile(`(?s)<h([1-3]) id="([^"]*)">(.*?)<a class="anchor-link" href="#[^"]*">¶</a></h[1-3]>`)
	anyTag     = regexp.MustCompile(`(?s)<[^>]*>`)
)

// processFragment makes a notebook's fragment a page's body: figures in
// files of their own (img/), every figure checked for alt text, the live
// figures' captions tied to their frames, and links to other lessons and
// files of the repository made to work on the site.
func processFragment(frag string, nb *notebook, s siteInput) (string, error) {
	var err error
	imgDir := filepath.Join(s.out, "img")
	frag = dataImage.ReplaceAllStringFunc(frag, func(m string) string {
		sub := dataImage.FindStringSubmatch(m)
		b, e := base64.StdEncoding.DecodeString(html.UnescapeString(sub[2]))
		if e != nil {
			err = fmt.Errorf("%s: a figure's data: %w", nb.Path, e)
			return m
		}
		sum := sha256.Sum256(b)
		name := hex.EncodeToString(sum[:16]) + "." + strings.TrimSuffix(sub[1], "+xml")
		if e := os.MkdirAll(imgDir, 0o755); e != nil {
			err = e
		} else if e := os.WriteFile(filepath.Join(imgDir, name), b, 0o644); e != nil {
			err = e
		}
		return `src="img/` + name + `"`
	})
	if err != nil {
		return "", err
	}
	for i, tag := range imgTag.FindAllString(frag, -1) {
		a := altAttr.FindStringSubmatch(tag)
		if a == nil || strings.TrimSpace(html.UnescapeString(a[1])) == "" {
			return "", fmt.Errorf("%s: figure %d has no alt text: every figure of the pack says what it shows (view.ShowAlt)", nb.Path, i+1)
		}
	}
	frag, err = tieLiveFigures(frag, nb, s.figures[nb.Path])
	if err != nil {
		return "", err
	}
	return rewriteLinks(frag, nb, s), nil
}

// tieLiveFigures marks each live figure's caption (the still figure's, in
// the committed notebook) with the id of its data, which follows the
// fragment as JSON, after checking that the frame drawn now for the
// starting values has the committed caption and values: a notebook that
// was not executed again after a change says so here.
func tieLiveFigures(frag string, nb *notebook, figs []*liveFigure) (string, error) {
	caps := liveCap.FindAllStringSubmatch(frag, -1)
	if len(caps) != len(figs) {
		return "", fmt.Errorf("%s: %d live figures in the committed outputs, but its live cells drew %d: execute the notebook again", nb.Path, len(caps), len(figs))
	}
	var data strings.Builder
	k := 0
	var err error
	frag = liveCap.ReplaceAllStringFunc(frag, func(m string) string {
		sub := liveCap.FindStringSubmatch(m)
		fig := figs[k]
		id := fmt.Sprintf("live-%s-%d", nb.name(), k)
		k++
		capID, values := idAttr.FindStringSubmatch(sub[1]), valuesAttr.FindStringSubmatch(sub[1])
		if capID == nil || values == nil {
			err = fmt.Errorf("%s: live figure %d: its caption %s has no id or no data-values", nb.Path, k, m)
			return m
		}
		rawValues := values[1]
		values[1], sub[2] = html.UnescapeString(values[1]), html.UnescapeString(sub[2])
		caption := sub[2]
		if values[1] != fig.values || caption != fig.start.Caption {
			err = fmt.Errorf("%s: live figure %d: the committed still figure is at %q with the caption %q, but its cell draws %q at %q now: execute the notebook again", nb.Path, k, values[1], caption, fig.start.Caption, fig.values)
			return m
		}
		for i := range fig.Frames {
			if fig.Frames[i].Src != "" && !strings.HasPrefix(fig.Frames[i].Src, "frames/") {
				fig.Frames[i].Src = "frames/" + fig.Frames[i].Src
			}
		}
		b, e := json.Marshal(fig)
		if e != nil {
			err = e
			return m
		}
		fmt.Fprintf(&data, "<script type=\"application/json\" id=\"%s\">%s</script>\n", id, b)
		return fmt.Sprintf(`<p id="%s" class="plots-explore-caption" data-values="%s" data-live="%s" aria-live="polite">%s</p>`, capID[1], rawValues, id, html.EscapeString(caption))
	})
	if err != nil {
		return "", err
	}
	return frag + data.String(), nil
}

// rewriteLinks points a link to another lesson at its page, and a link to
// another file of the repository at that file on GitHub.
func rewriteLinks(frag string, nb *notebook, s siteInput) string {
	lessons := map[string]bool{}
	for _, o := range s.notebooks {
		lessons[o.Path] = true
	}
	return hrefAttr.ReplaceAllStringFunc(frag, func(m string) string {
		raw := html.UnescapeString(hrefAttr.FindStringSubmatch(m)[1])
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(raw, "/") {
			return m
		}
		target := path.Clean(path.Join(path.Dir(nb.Path), u.Path))
		var to string
		switch {
		case lessons[target]:
			to = strings.TrimSuffix(path.Base(target), ".ipynb") + ".html"
		case strings.HasPrefix(target, "../"):
			return m
		default:
			to = s.cfg.SourceURL(target)
		}
		if u.Fragment != "" {
			to += "#" + u.Fragment
		}
		return `href="` + html.EscapeString(to) + `"`
	})
}

// headings lists the headings of a page body (levels 1 to 3).
func headings(body string) []heading {
	var hs []heading
	for _, m := range headingTag.FindAllStringSubmatch(body, -1) {
		hs = append(hs, heading{Level: int(m[1][0] - '0'), ID: html.UnescapeString(m[2]), Text: plainText(m[3])})
	}
	return hs
}

// plainText is the text of an HTML fragment, with its whitespace collapsed.
func plainText(h string) string {
	return strings.Join(strings.Fields(html.UnescapeString(anyTag.ReplaceAllString(h, " "))), " ")
}

var goalsList = regexp.MustCompile(`(?s)Learning goals\..*?(<ul>.*?</ul>)`)

// learningGoals is the list that follows "Learning goals." in a lesson, or "".
func learningGoals(body string) string {
	if m := goalsList.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// searchEntry is one section of a page (from one heading to the next) in
// the search index.
type searchEntry struct {
	Page    string `json:"p"` // the page's file
	Title   string `json:"t"` // the page's title
	Heading string `json:"h"`
	Anchor  string `json:"a"`
	Text    string `json:"x"`
}

var scriptTag = regexp.MustCompile(`(?s)<script\b.*?</script>`)

// searchIndex is the site's search index: a script that sets
// window.LESSONS_SEARCH (a script, not JSON to fetch, so that it loads from
// a file:// page too).
func searchIndex(pages []*page) ([]byte, error) {
	var entries []searchEntry
	for _, p := range pages {
		body := scriptTag.ReplaceAllString(string(p.Body), " ")
		locs := headingTag.FindAllStringSubmatchIndex(body, -1)
		start, e := 0, searchEntry{Page: p.File, Title: p.Title, Heading: p.Title}
		for _, l := range locs {
			e.Text = plainText(body[start:l[0]])
			if e.Text != "" || e.Anchor != "" {
				entries = append(entries, e)
			}
			e = searchEntry{Page: p.File, Title: p.Title, Heading: plainText(body[l[6]:l[7]]), Anchor: html.UnescapeString(body[l[4]:l[5]])}
			start = l[1]
		}
		e.Text = plainText(body[start:])
		entries = append(entries, e)
	}
	b, err := json.Marshal(entries)
	if err != nil {
		return nil, err
	}
	return []byte("window.LESSONS_SEARCH = " + string(b) + ";\n"), nil
}

// copyNotebooks puts the notebooks, as committed, into the site, for the
// pages' download links.
func copyNotebooks(s siteInput) error {
	dir := filepath.Join(s.out, "notebooks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, nb := range s.notebooks {
		b, err := os.ReadFile(filepath.Join(s.repo, nb.Path))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(nb.Path)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyKaTeX copies what the pages load of KaTeX's dist folder: its
// script, its style, the auto-render extension and the fonts.
func copyKaTeX(dist, to string) error {
	for _, f := range []string{"katex.min.js", "katex.min.css", "contrib/auto-render.min.js", "fonts"} {
		src := filepath.Join(dist, f)
		st, err := os.Stat(src)
		if err != nil {
			return fmt.Errorf("KaTeX: %w (scripts/site.sh installs it with npm ci)", err)
		}
		if st.IsDir() {
			if err := os.CopyFS(filepath.Join(to, f), os.DirFS(src)); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(to, f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, f), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
