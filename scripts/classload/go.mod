module github.com/perceptron-go/lessons/scripts/classload

go 1.26.0

require github.com/coder/websocket v1.8.15
