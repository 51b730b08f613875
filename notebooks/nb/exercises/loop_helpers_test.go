package exercises

import (
	"go/ast"

	"github.com/perceptron-go/lessons/internal/gosrc"
)

// packageCallIn is packageCall on a parsed file, for the function called
// name (a method value's name ends in "-fm"), as the tests of the cheats
// ask it: "" when the file declares no such function.
func packageCallIn(file *ast.File, name string, allow ...string) string {
	call, _ := gosrc.NewAnalysis(file, policy(true, allow...)).CheckName(name)
	return call
}

// newAnalysis is the exercises' analysis of file.
func newAnalysis(file *ast.File, allow ...string) *gosrc.Analysis {
	return gosrc.NewAnalysis(file, policy(true, allow...))
}
