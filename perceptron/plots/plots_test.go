package plots_test

import (
	"bytes"
	"errors"
	"image"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/perceptron"
	"github.com/perceptron-go/lessons/perceptron/plots"
)

// checkGolden renders p to PNG and compares it with
// testdata/<name>_golden.png by cmpimg.Equal (pixel for pixel). With
// -regen (cmpimg's flag: go test ./perceptron/plots -regen) it writes the
// golden image instead. On a mismatch the image is written to a temporary
// file whose name is reported.
func checkGolden(t *testing.T, name string, p *plot.Plot, w, h vg.Length) {
	t.Helper()
	got, err := plots.PNG(p, w, h)
	if err != nil {
		t.Fatalf("%s: PNG: %v", name, err)
	}
	path := filepath.Join("testdata", name+"_golden.png")
	if *cmpimg.GenerateTestData {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test -regen to create it)", name, err)
	}
	ok, err := cmpimg.Equal("png", got, want)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !ok {
		// Keep the image after the test for inspection (t.TempDir
		// would remove it).
		f, err := os.CreateTemp("", "plots-"+name+"-*.png")
		if err == nil {
			_, _ = f.Write(got)
			_ = f.Close()
			t.Errorf("%s: image differs from %s; got written to %s", name, path, f.Name())
		} else {
			t.Errorf("%s: image differs from %s", name, path)
		}
	}
}

func TestGolden(t *testing.T) {
	hyper := func() (*plot.Plot, error) { p, _, err := hyperplaneFigure(); return p, err }
	for _, tc := range []struct {
		name string
		fig  func() (*plot.Plot, error)
		w, h vg.Length
	}{
		{"hyperplane", hyper, 12 * vg.Centimeter, 12 * vg.Centimeter},
		{"loss", lossFigure, 12 * vg.Centimeter, 12 * vg.Centimeter},
		{"mistakes", mistakesFigure, 14 * vg.Centimeter, 9 * vg.Centimeter},
		{"epochs", epochsFigure, 12 * vg.Centimeter, 8 * vg.Centimeter},
		{"bound", boundFigure, 12 * vg.Centimeter, 10 * vg.Centimeter},
		{"regions", circleFigure, 12 * vg.Centimeter, 12 * vg.Centimeter},
	} {
		p, err := tc.fig()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		checkGolden(t, tc.name, p, tc.w, tc.h)
	}
}

// TestPlotErrors checks that bad input gives the documented error, not a panic
// or a silently wrong figure.
func TestPlotErrors(t *testing.T) {
	box := plots.Box{XMin: 0, XMax: 1, YMin: 0, YMax: 1}
	d := toy()
	errOf := func(_ any, err error) error { return err }
	if _, err := plots.Boundary(perceptron.Hyperplane{W: []float64{1, 0}, B: -2}, box); !errors.Is(err, plots.ErrOutside) {
		t.Errorf("boundary outside the box: error %v does not match ErrOutside", err)
	}
	if _, err := plots.Boundary(perceptron.Hyperplane{W: []float64{0, 0}}, box); errors.Is(err, plots.ErrOutside) {
		t.Errorf("w = 0: error %v matches ErrOutside", err)
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"boundary 3-D", errOf(plots.Boundary(perceptron.Hyperplane{W: []float64{1, 2, 3}}, box)),
			"perceptron/plots: wrong dimension: w has 3 components, a 2-D figure needs 2"},
		{"boundary w = 0", errOf(plots.Boundary(perceptron.Hyperplane{W: []float64{0, 0}, B: 1}, box)),
			"perceptron/plots: w is the zero vector, so there is no boundary to draw"},
		{"boundary outside", errOf(plots.Boundary(perceptron.Hyperplane{W: []float64{1, 0}, B: -2}, box)),
			"perceptron/plots: the boundary w = [1 0], b = -2 does not cross the box {0 1 0 1}"},
		{"boundary empty box", errOf(plots.Boundary(perceptron.Hyperplane{W: []float64{1, 0}}, plots.Box{XMin: 1, XMax: 1, YMin: 0, YMax: 1})),
			"perceptron/plots: box {1 1 0 1} is empty: need XMin < XMax and YMin < YMax"},
		{"band gamma 0", errOf(plots.MarginBand(perceptron.Hyperplane{W: []float64{1, 1}}, 0, box, true)),
			"perceptron/plots: margin gamma must be a finite number > 0, got 0"},
		{"band 1-D", errOf(plots.MarginBand(perceptron.Hyperplane{W: []float64{1}}, 1, box, false)),
			"perceptron/plots: wrong dimension: w has 1 components, a 2-D figure needs 2"},
		{"band outside", errOf(plots.MarginBand(perceptron.Hyperplane{W: []float64{0, 1}, B: 5}, 1, box, false)),
			"perceptron/plots: the margin band of width 1 around w = [0 1], b = 5 misses the box {0 1 0 1}"},
		{"arrow w = 0", errOf(plots.Arrow(perceptron.Hyperplane{W: []float64{0, 0}}, [2]float64{}, 1)),
			"perceptron/plots: w is the zero vector, so there is no boundary to draw"},
		{"arrow length", errOf(plots.Arrow(perceptron.Hyperplane{W: []float64{0, 1}}, [2]float64{}, -1)),
			"perceptron/plots: arrow length must be a finite number > 0, got -1"},
		{"points column", errOf(nil, plots.AddPoints(plot.New(), d, 0, 2)),
			"perceptron/plots: columns (0, 2) out of range: the data has 2 features"},
		{"points bad label", errOf(nil, plots.AddPoints(plot.New(), &perceptron.Dataset{X: d.X, Y: append(append([]float64(nil), d.Y[:9]...), 0)}, 0, 1)),
			"perceptron/plots: row 9: label 0 is not -1 or +1"},
		{"regions resolution", errOf(plots.Regions(func(x, y float64) float64 { return x }, box, 0)),
			"perceptron/plots: resolution must be in [1, 4096], got 0"},
		{"regions NaN", errOf(plots.Regions(func(x, y float64) float64 { return 0 * (1 / (x - x)) }, box, 2)),
			"perceptron/plots: score(0.25, 0.75) is NaN"},
		{"contours Inf", errOf(plots.Contours(func(x, y float64) float64 { return 1 / (x - x) }, box, nil, 2)),
			"perceptron/plots: f(0.25, 0.25) is +Inf, not finite"},
		{"path empty", errOf(plots.Path(nil, plots.Color(0))), "perceptron/plots: path: no points"},
		{"series empty", errOf(plots.Series(nil)), "perceptron/plots: series: no values"},
		{"steps NaN", errOf(plots.Steps([]float64{1, math.NaN()})),
			"perceptron/plots: series: value 1 is NaN, not finite"},
		{"scatter lengths", errOf(plots.Scatter([]float64{1}, []float64{1, 2})),
			"perceptron/plots: scatter: 1 x values but 2 y values"},
		{"identity", errOf(plots.Identity(1, 1)), "perceptron/plots: identity: need lo < hi, got 1 and 1"},
		{"png size", errOf(plots.PNG(plot.New(), 0, 1)),
			"perceptron/plots: render: size 0 × 1 must be > 0 and at most 100 inches"},
		{"gif empty", errOf(plots.GIF(nil, 1, 1, 10)), "perceptron/plots: gif: no frames"},
		{"gif delay", errOf(plots.GIF([]*plot.Plot{plot.New()}, 1, 1, 0)),
			"perceptron/plots: gif: delay must be >= 1 hundredth of a second, got 0"},
		{"save ext", plots.Save(plot.New(), "x.jpg", 1, 1), `perceptron/plots: save "x.jpg": only .png files are supported`},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if tc.err.Error() != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, tc.err, tc.want)
		}
	}
}

// TestBoundaryGeometry checks the clipped boundary, band and arrow against
// values worked out by hand.
func TestBoundaryGeometry(t *testing.T) {
	box := plots.Box{XMin: -2, XMax: 2, YMin: -1, YMax: 1}
	for _, tc := range []struct {
		name string
		h    perceptron.Hyperplane
		want [2][2]float64
	}{
		// The line runs from end 0 to end 1 along w turned by +90°,
		// (-w2, w1).
		// x1 = 0.5: vertical, from bottom to top.
		{"vertical", perceptron.Hyperplane{W: []float64{2, 0}, B: -1}, [2][2]float64{{0.5, -1}, {0.5, 1}}},
		// x2 = -0.5: horizontal, from left to right.
		{"horizontal", perceptron.Hyperplane{W: []float64{0, -4}, B: -2}, [2][2]float64{{-2, -0.5}, {2, -0.5}}},
		// x1 + x2 = 0 leaves through the top and bottom edges.
		{"diagonal", perceptron.Hyperplane{W: []float64{1, 1}}, [2][2]float64{{1, -1}, {-1, 1}}},
	} {
		l, err := plots.Boundary(tc.h, box)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(l.XYs) != 2 {
			t.Fatalf("%s: %d points, want 2", tc.name, len(l.XYs))
		}
		for k, q := range l.XYs {
			// The ends come from a few divisions of small exact
			// numbers; allow a few ulps.
			const tol = 1e-12
			if d := abs(q.X-tc.want[k][0]) + abs(q.Y-tc.want[k][1]); !(d <= tol) {
				t.Errorf("%s: end %d = %v, want %v", tc.name, k, q, tc.want[k])
			}
			if s, _ := tc.h.Score([]float64{q.X, q.Y}); !(abs(s) <= 1e-12) {
				t.Errorf("%s: end %d has score %v, want 0", tc.name, k, s)
			}
		}
	}

	// The band lines lie at signed distance ∓gamma, and the fill stays
	// within gamma of the boundary.
	h := perceptron.Hyperplane{W: []float64{3, 4}, B: -1}
	const gamma = 0.5
	b, err := plots.MarginBand(h, gamma, box, true)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{-gamma, gamma} {
		for _, q := range b.Lines[k].XYs {
			d, _ := h.SignedDistance([]float64{q.X, q.Y})
			if !(abs(d-want) <= 1e-12) {
				t.Errorf("band line %d: point %v at distance %v, want %v", k, q, d, want)
			}
		}
	}
	for _, q := range b.Fill.XYs[0] {
		d, _ := h.SignedDistance([]float64{q.X, q.Y})
		if !(abs(d) <= gamma+1e-12) || q.X < box.XMin || q.X > box.XMax || q.Y < box.YMin || q.Y > box.YMax {
			t.Errorf("band fill vertex %v outside the band or box (distance %v)", q, d)
		}
	}

	// The arrow starts on the boundary and points into S+ along w.
	a, err := plots.Arrow(h, [2]float64{1, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	s0, _ := h.Score([]float64{a.From.X, a.From.Y})
	d1, _ := h.SignedDistance([]float64{a.To.X, a.To.Y})
	// Exact up to rounding of a few operations on small numbers.
	if !(abs(s0) <= 1e-12) || !(abs(d1-2) <= 1e-12) {
		t.Errorf("arrow from %v (score %v, want 0) to %v (distance %v, want 2)", a.From, s0, a.To, d1)
	}
	// From (1, 1), score 6, the foot is (1, 1) - 6/25 (3, 4).
	if !(abs(a.From.X-(1-18.0/25)) <= 1e-12) || !(abs(a.From.Y-(1-24.0/25)) <= 1e-12) {
		t.Errorf("arrow foot %v, want (%v, %v)", a.From, 1-18.0/25, 1-24.0/25)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPoints checks the split into classes and the legend names.
func TestPoints(t *testing.T) {
	d := toy()
	neg, pos, err := plots.Points(d, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(neg.XYs) != 5 || len(pos.XYs) != 5 {
		t.Fatalf("got %d negative and %d positive points, want 5 and 5", len(neg.XYs), len(pos.XYs))
	}
	// Columns swapped: row 0, (1, 4), is drawn at (4, 1).
	if pos.XYs[0].X != 4 || pos.XYs[0].Y != 1 {
		t.Errorf("first positive point %v, want (4, 1)", pos.XYs[0])
	}
	if neg.GlyphStyle.Color == pos.GlyphStyle.Color || neg.GlyphStyle.Shape == pos.GlyphStyle.Shape {
		t.Error("the classes share a colour or a shape")
	}
	n, p := plots.ClassNames(d)
	if n != "rejected" || p != "approved" {
		t.Errorf("names %q, %q", n, p)
	}
	n, p = plots.ClassNames(&perceptron.Dataset{})
	if n != "y = -1" || p != "y = +1" {
		t.Errorf("default names %q, %q", n, p)
	}
}

// TestRegionsColours checks the cell colours on both sides of x = 0.
func TestRegionsColours(t *testing.T) {
	img, err := plots.Regions(func(x, y float64) float64 { return x }, plots.Box{XMin: -1, XMax: 1, YMin: 0, YMax: 1}, 4)
	if err != nil {
		t.Fatal(err)
	}
	_ = img
	// plotter.Image keeps its image private; check through a render: the
	// left half of the plot area is NegLight and the right half PosLight.
	p := plot.New()
	p.HideAxes()
	p.Add(img)
	b, err := plots.PNG(p, 2*vg.Inch, 1*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	r := m.Bounds()
	y := (r.Min.Y + r.Max.Y) / 2
	left, right := m.At(r.Min.X+r.Dx()/4, y), m.At(r.Min.X+3*r.Dx()/4, y)
	if !sameColor(left, plots.NegLight) || !sameColor(right, plots.PosLight) {
		t.Errorf("left %v, right %v; want %v and %v", left, right, plots.NegLight, plots.PosLight)
	}
}

func sameColor(a, b interface{ RGBA() (r, g, b, a uint32) }) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// TestDeterministic renders the same figure twice, from scratch, and
// checks that PNG and GIF give identical bytes.
func TestDeterministic(t *testing.T) {
	var pngs, gifs [2][]byte
	for i := range 2 {
		p, _, err := hyperplaneFigure()
		if err != nil {
			t.Fatal(err)
		}
		if pngs[i], err = plots.PNG(p, 10*vg.Centimeter, 10*vg.Centimeter); err != nil {
			t.Fatal(err)
		}
		q, err := lossFigure()
		if err != nil {
			t.Fatal(err)
		}
		if gifs[i], err = plots.GIF([]*plot.Plot{p, q, p}, 6*vg.Centimeter, 6*vg.Centimeter, 40); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pngs[0], pngs[1]) {
		t.Error("two renders of the same figure give different PNG bytes")
	}
	if !bytes.Equal(gifs[0], gifs[1]) {
		t.Error("two renders of the same animation give different GIF bytes")
	}
	g, err := gif.DecodeAll(bytes.NewReader(gifs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 3 || len(g.Delay) != 3 || g.Delay[0] != 40 || g.LoopCount != 0 {
		t.Errorf("GIF has %d frames, delays %v, loop count %d; want 3 frames of 40 looping forever",
			len(g.Image), g.Delay, g.LoopCount)
	}
	// 6 cm at 96 dpi is 226.77 pixels, rounded up by vgimg.
	if r := g.Image[0].Bounds(); r.Dx() != 227 || r.Dy() != 227 {
		t.Errorf("frame size %v, want 227 × 227", r.Size())
	}
	// Frames 0 and 2 are the same plot, frame 1 another one.
	if !sameImage(g.Image[0], g.Image[2]) || sameImage(g.Image[0], g.Image[1]) {
		t.Error("frames are not the plots they were made from")
	}
}

// TestSave writes a PNG and reads it back.
func TestSave(t *testing.T) {
	p, err := boundFigure()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bound.png")
	if err := plots.Save(p, path, 3*vg.Inch, 2*vg.Inch); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := plots.PNG(p, 3*vg.Inch, 2*vg.Inch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("Save wrote other bytes than PNG returns")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 3*plots.DPI || cfg.Height != 2*plots.DPI {
		t.Errorf("size %d × %d, want %d × %d", cfg.Width, cfg.Height, 3*plots.DPI, 2*plots.DPI)
	}
}

// TestGIFHTML checks that the alternative text of a GIF is escaped.
func TestGIFHTML(t *testing.T) {
	h := plots.GIFHTML([]byte("GIF89a"), `a "b" <c>`)
	want := `<img alt="a &quot;b&quot; &lt;c&gt;" src="data:image/gif;base64,R0lGODlh">`
	if h != want {
		t.Errorf("GIFHTML = %s, want %s", h, want)
	}
}

// TestBoxOf checks the padded bounding box of the toy data, whose columns
// span [0.5, 4] and [0.5, 4.5].
func TestBoxOf(t *testing.T) {
	b, err := plots.BoxOf(toy(), 0, 1, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	want := plots.Box{XMin: 0.5 - 0.35, XMax: 4 + 0.35, YMin: 0.5 - 0.4, YMax: 4.5 + 0.4}
	// A product and a sum of short decimals: a few ulps of rounding.
	const tol = 1e-12
	if !(abs(b.XMin-want.XMin) <= tol) || !(abs(b.XMax-want.XMax) <= tol) || !(abs(b.YMin-want.YMin) <= tol) || !(abs(b.YMax-want.YMax) <= tol) {
		t.Errorf("BoxOf = %v, want %v", b, want)
	}
	// A constant column gets a width of 2 around its value.
	d, err := perceptron.NewDataset([][]float64{{3, 1}, {3, 2}}, []float64{-1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := plots.BoxOf(d, 0, 1, 0); err != nil || b != (plots.Box{XMin: 2, XMax: 4, YMin: 1, YMax: 2}) {
		t.Errorf("BoxOf of a constant column = %v, %v; want {2 4 1 2}", b, err)
	}
	if _, err := plots.BoxOf(d, 0, 1, -1); err == nil || err.Error() != "perceptron/plots: pad must be a finite number >= 0, got -1" {
		t.Errorf("negative pad: error %v", err)
	}
}

// sameImage reports whether a and b have the same bounds and pixels (for
// GIF frames, which cmpimg does not decode).
func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
