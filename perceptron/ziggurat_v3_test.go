//go:build amd64.v3

package perceptron

// amd64v3 is true in a GOAMD64=v3 (or later) build, whose standard library
// fuses multiply-adds.
const amd64v3 = true
