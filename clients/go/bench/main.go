// The Go client's figures for layoutd-bench --clients, as clients/c/bench does them: one
// caption's round trip and 1,000 captions pipelined.
//
//	bench SOCKET TEXTS    TEXTS: captions separated by NUL bytes
//
// Prints "roundtrip_us MEDIAN" (over 300 captions, one at a time, after 20 unmeasured) and
// "pipelined_us TOTAL" (the first 1,000 captions, up to 64 in flight: the median of three
// batches after one unmeasured).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sort"
	"time"

	layoutd "layoutd/clients/go"
	"layoutd/clients/go/layoutdv1"
)

func main() {
	if len(os.Args) != 3 {
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail(err)
	}
	var texts []string
	for _, text := range bytes.Split(data, []byte{0}) {
		texts = append(texts, string(text))
	}
	client, err := layoutd.Dial(layoutd.Options{SocketPath: os.Args[1]})
	if err != nil {
		fail(err)
	}
	defer client.Close()
	request := func(text string) *layoutdv1.LayoutRequest {
		return &layoutdv1.LayoutRequest{Text: text, Width: 300, DefaultStyle: &layoutdv1.Style{Size: 24}}
	}
	ctx := context.Background()
	var times []float64
	for i := 0; i < 320 && i < len(texts); i++ {
		start := time.Now()
		if _, err := client.Layout(ctx, request(texts[i])); err != nil {
			fail(err)
		}
		if i >= 20 {
			times = append(times, float64(time.Since(start).Nanoseconds())/1e3)
		}
	}
	sort.Float64s(times)
	fmt.Printf("roundtrip_us %.2f\n", times[len(times)/2])

	requests := make([]*layoutdv1.LayoutRequest, 1000)
	for i := range requests {
		requests[i] = request(texts[i%len(texts)])
	}
	var batches []float64
	for batch := 0; batch < 4; batch++ {
		start := time.Now()
		for _, result := range client.LayoutMany(ctx, requests, 64) {
			if result.Err != nil {
				fail(result.Err)
			}
		}
		if batch > 0 {
			batches = append(batches, float64(time.Since(start).Nanoseconds())/1e3)
		}
	}
	sort.Float64s(batches)
	fmt.Printf("pipelined_us %.0f\n", batches[len(batches)/2])
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "bench: %v\n", err)
	os.Exit(1)
}
