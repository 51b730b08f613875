module github.com/perceptron-go/lessons/scripts/classload

go 1.26.0

require (
	github.com/coder/websocket v1.8.15
	github.com/perceptron-go/lessons v0.0.0
)

replace github.com/perceptron-go/lessons => ../../
