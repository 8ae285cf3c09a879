// Tiny Go benchmarks; make_go.sh runs them to write tests/data/go/.
package brfixture

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func BenchmarkSort(b *testing.B) {
	for _, n := range []int{16, 256} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			data := make([]int, n)
			for i := 0; i < b.N; i++ {
				for j := range data {
					data[j] = n - j
				}
				sort.Ints(data)
			}
		})
	}
}

func BenchmarkJoin(b *testing.B) {
	parts := []string{"a", "b", "c", "d"}
	b.ReportAllocs()
	b.SetBytes(4)
	for i := 0; i < b.N; i++ {
		_ = strings.Join(parts, ",")
	}
	b.ReportMetric(3, "commas/op")
}
