module github.com/perceptron-go/lessons/scripts/site

go 1.26.0

replace github.com/perceptron-go/lessons => ../../

require (
	github.com/perceptron-go/lessons v0.0.0
	go.yaml.in/yaml/v3 v3.0.4
)
