// Command gonbfmt formats the GoNB cell it reads on its standard input as
// gofmt would (package cellfmt) and writes it to its standard output. On
// code that does not parse it writes the error, naming the cell's line, to
// its standard error and exits with status 1. JupyterLab's and Notebook 7's
// format command (jupyterlab-code-formatter, with the formatter that
// scripts/jupyter/jupyter_server_config.py registers) runs it.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/perceptron-go/lessons/internal/cellfmt"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gonbfmt:", err)
		os.Exit(2)
	}
	out, err := cellfmt.Format(string(in))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(out)
}
