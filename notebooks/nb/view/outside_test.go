package view_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/perceptron-go/lessons/notebooks/nb/view"
)

// TestDisplayOutsideNotebook checks that Display, DisplayGIF and Show say
// so, rather than doing nothing, when the test is not run by GoNB.
func TestDisplayOutsideNotebook(t *testing.T) {
	if os.Getenv("GONB_PIPE") != "" {
		t.Skip("running inside GoNB")
	}
	if err := view.Display(plot.New(), vg.Inch, vg.Inch); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("Display: error %v, want ErrNotNotebook", err)
	}
	if err := view.DisplayGIF([]byte("GIF89a"), "x"); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("DisplayGIF: error %v, want ErrNotNotebook", err)
	}
	if err := view.Show(plot.New()); !errors.Is(err, view.ErrNotNotebook) {
		t.Errorf("Show: error %v, want ErrNotNotebook", err)
	}
}

// Show a figure inline in a GoNB notebook. Outside a notebook (here, go
// test) Display draws nothing and says so with ErrNotNotebook, which a
// program that also runs headless can ignore.
func ExampleDisplay() {
	p := plot.New()
	p.Title.Text = "empty"
	err := view.Display(p, 12*vg.Centimeter, 10*vg.Centimeter)
	if errors.Is(err, view.ErrNotNotebook) {
		fmt.Println("not in a notebook: nothing shown")
	} else if err != nil {
		log.Fatal(err)
	}
	// Output:
	// not in a notebook: nothing shown
}
