//go:build !amd64.v3

package perceptron

// amd64v3 is false outside a GOAMD64=v3 build.
const amd64v3 = false
