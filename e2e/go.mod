module github.com/perceptron-go/lessons/e2e

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/perceptron-go/lessons v0.0.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)

replace github.com/perceptron-go/lessons => ../
