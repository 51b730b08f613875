package plots

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	imgdraw "image/draw"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	stdpal "image/color/palette"
)

// DPI is the resolution at which PNG and GIF render: a 12 cm wide figure
// is 454 pixels wide.
const DPI = 96

// Width and Height are the size of the lessons' figures: every committed
// PNG (package figures) and what a notebook's Show displays.
const (
	Width  = 14 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// render draws p on a white canvas of the given size.
func render(p *plot.Plot, width, height vg.Length) (*image.RGBA, error) {
	if p == nil {
		return nil, errorf("render: nil plot")
	}
	if !(width > 0) || !(height > 0) || width > 100*vg.Inch || height > 100*vg.Inch {
		return nil, errorf("render: size %v × %v must be > 0 and at most 100 inches", width, height)
	}
	c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI),
		vgimg.UseBackgroundColor(color.White))
	p.Draw(draw.New(c))
	img, ok := c.Image().(*image.RGBA)
	if !ok {
		out := image.NewRGBA(c.Image().Bounds())
		imgdraw.Draw(out, out.Bounds(), c.Image(), image.Point{}, imgdraw.Src)
		img = out
	}
	return img, nil
}

// PNG renders p at DPI dots per inch to PNG bytes. The same plot gives the
// same bytes on every run.
func PNG(p *plot.Plot, width, height vg.Length) ([]byte, error) {
	img, err := render(p, width, height)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, errorf("png: %v", err)
	}
	return buf.Bytes(), nil
}

// Save writes p to path as a PNG made by PNG. It is an error for path not
// to end in ".png".
func Save(p *plot.Plot, path string, width, height vg.Length) error {
	if !strings.EqualFold(filepath.Ext(path), ".png") {
		return errorf("save %q: only .png files are supported", path)
	}
	b, err := PNG(p, width, height)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// gifPalette is the fixed palette of GIF: the Okabe–Ito colours, the class
// tints, white, black, a ramp of 32 greys and the 216 web-safe colours
// (256 colours at most).
var gifPalette = func() color.Palette {
	pal := color.Palette{color.White, Black, Orange, SkyBlue, BluishGreen, Yellow,
		Blue, Vermillion, ReddishPurple, NegLight, PosLight}
	for i := 1; i < 32; i++ {
		pal = append(pal, color.Gray{Y: uint8(i * 255 / 32)})
	}
	for _, c := range stdpal.WebSafe {
		if len(pal) == 256 {
			break
		}
		pal = append(pal, c)
	}
	return pal
}()

// GIF renders the frames, in order, as an animated GIF that loops forever,
// showing each frame for delay hundredths of a second. Every frame is
// mapped to a fixed 256-colour palette without dithering, so the bytes are
// the same on every run. It is an error for there to be no frame or for
// delay to be < 1.
func GIF(frames []*plot.Plot, width, height vg.Length, delay int) ([]byte, error) {
	if len(frames) == 0 {
		return nil, errorf("gif: no frames")
	}
	if delay < 1 {
		return nil, errorf("gif: delay must be >= 1 hundredth of a second, got %d", delay)
	}
	anim := &gif.GIF{LoopCount: 0}
	cache := make(map[color.RGBA]uint8)
	for i, p := range frames {
		img, err := render(p, width, height)
		if err != nil {
			return nil, errorf("gif: frame %d: %v", i, err)
		}
		anim.Image = append(anim.Image, toPaletted(img, cache))
		anim.Delay = append(anim.Delay, delay)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, errorf("gif: %v", err)
	}
	return buf.Bytes(), nil
}

// toPaletted maps every pixel of img to the nearest colour of gifPalette
// (no dithering), remembering the index of each colour met in cache.
func toPaletted(img *image.RGBA, cache map[color.RGBA]uint8) *image.Paletted {
	r := img.Bounds()
	pm := image.NewPaletted(r, gifPalette)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := img.RGBAAt(x, y)
			k, ok := cache[c]
			if !ok {
				k = uint8(gifPalette.Index(c))
				cache[c] = k
			}
			pm.SetColorIndex(x, y, k)
		}
	}
	return pm
}

// GIFHTML returns an HTML <img> element that embeds the GIF bytes as a
// base64 data URL, with alt as its alternative text (HTML-escaped).
func GIFHTML(gifBytes []byte, alt string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return `<img alt="` + r.Replace(alt) + `" src="data:image/gif;base64,` +
		base64.StdEncoding.EncodeToString(gifBytes) + `">`
}
