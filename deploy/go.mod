module github.com/perceptron-go/lessons/deploy

go 1.26.0

require (
	github.com/moby/patternmatcher v0.6.1
	github.com/perceptron-go/lessons v0.0.0
	go.yaml.in/yaml/v3 v3.0.4
)

replace github.com/perceptron-go/lessons => ../
