package exercises

import "testing"

func TestCheckSurvivalCounts(t *testing.T) {
	ref := func(mistakes []int, S int) []int {
		c := make([]int, len(mistakes)+1)
		prev := 0
		for k, m := range mistakes {
			c[k] = m - 1 - prev
			prev = m - 1
		}
		c[len(mistakes)] = S - prev
		return c
	}
	wrong := map[string]func([]int, int) []int{
		"creating step not counted": func(mistakes []int, S int) []int {
			c := make([]int, len(mistakes)+1)
			prev := 0
			for k, m := range mistakes {
				c[k] = m - prev
				prev = m
			}
			c[len(mistakes)] = S - prev
			return c
		},
		"w_0 left out": func(mistakes []int, S int) []int { return ref(mistakes, S)[1:] },
	}
	expectChecker(t, CheckSurvivalCounts, ref, wrong, func([]int, int) []int { panic("not implemented") })
}

func TestCheckCountWeightedAverage(t *testing.T) {
	avg := func(ws [][]float64, counts []int, byVectors bool) []float64 {
		out := make([]float64, len(ws[0]))
		total := 0.0
		for k, w := range ws {
			c := float64(counts[k])
			if byVectors {
				c = 1
			}
			total += c
			for j, v := range w {
				out[j] += c * v
			}
		}
		for j := range out {
			out[j] /= total
		}
		return out
	}
	ref := func(ws [][]float64, counts []int) []float64 { return avg(ws, counts, false) }
	wrong := map[string]func([][]float64, []int) []float64{
		"plain mean of the vectors": func(ws [][]float64, counts []int) []float64 { return avg(ws, counts, true) },
		"last vector":               func(ws [][]float64, counts []int) []float64 { return ws[len(ws)-1] },
	}
	expectChecker(t, CheckCountWeightedAverage, ref, wrong, func([][]float64, []int) []float64 { panic("not implemented") })
}
