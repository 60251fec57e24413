// Command llmbench measures the pure-Go engine's prompt and generation speed
// on random-weight llama-shaped GGUF models of about 0.5B parameters that it
// writes itself (Q8_0 and Q4_K), with 1 and 2 threads, and prints a
// Markdown table. With -peer it adds the figures of a peer runtime read
// from a JSON file (see peer.mjs, which measures llama.cpp through
// node-llama-cpp on the same files).
//
//	go run ./llm/internal/llmbench -dir /tmp/sotto-llmbench
//	GOEXPERIMENT=simd go run ./llm/internal/llmbench -dir /tmp/sotto-llmbench
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/llama"
)

// Spec is the benchmark model: llama layout, 24 layers of width 1024, FFN
// 4096, 16 query and 4 key/value heads, a 49152-token vocabulary and an
// untied output (≈ 0.47B weights), every matrix of type t, the output of
// type out.
func Spec(t, out tensor.DType) llama.RandomSpec {
	return llama.RandomSpec{Arch: "llama", Dim: 1024, Hidden: 4096, Layers: 24, Heads: 16, KVHeads: 4, HeadDim: 64,
		Vocab: 49152, Context: 2048, Type: t, OutType: out, Seed: 1}
}

// kind is a benchmark model: a weight type, or Q4_K_M, Q4_K matrices with
// a Q6_K output as Q4_K_M files have (those also keep some attn_v and
// ffn_down matrices in Q6_K).
type kind struct {
	name   string
	t, out tensor.DType
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "llmbench:", err)
		os.Exit(1)
	}
}

type result struct {
	Type    string  `json:"type"`
	Threads int     `json:"threads"`
	Prompt  float64 `json:"prompt_tps"`
	Gen     float64 `json:"gen_tps"`
	// Per CPU-second of the whole process: on a shared machine, closer to
	// the uncontended speed than wall time (for one thread).
	PromptCPU float64 `json:"prompt_tpcs"`
	GenCPU    float64 `json:"gen_tpcs"`
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("llmbench", flag.ContinueOnError)
	dir := fs.String("dir", filepath.Join(os.TempDir(), "sotto-llmbench"), "directory for the model files (kept for reuse)")
	types := fs.String("types", "Q8_0,Q4_K", "weight types, or Q4_K_M (Q4_K with a Q6_K output matrix)")
	threads := fs.String("threads", "1,2", "thread counts")
	nPrompt := fs.Int("p", 64, "prompt tokens")
	nGen := fs.Int("n", 32, "generated tokens")
	reps := fs.Int("r", 3, "repetitions (the median is reported)")
	peer := fs.String("peer", "", "JSON file of peer figures ([{type, threads, prompt_tps, gen_tps}])")
	write := fs.Bool("write-only", false, "only write the model files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	var peers []result
	if *peer != "" {
		b, err := os.ReadFile(*peer)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &peers); err != nil {
			return err
		}
	}
	var rows []string
	for _, tn := range strings.Split(*types, ",") {
		k, err := parseKind(tn)
		if err != nil {
			return err
		}
		path, err := ensureModel(*dir, k)
		if err != nil {
			return err
		}
		if *write {
			fmt.Fprintln(out, path)
			continue
		}
		m, err := llama.LoadGGUF(path)
		if err != nil {
			return err
		}
		for _, ts := range strings.Split(*threads, ",") {
			var n int
			fmt.Sscan(ts, &n)
			r := measure(m, n, *nPrompt, *nGen, *reps)
			row := fmt.Sprintf("| %v | %d | %.1f (%.1f) | %.2f (%.2f) |", k.name, n, r.Prompt, r.PromptCPU, r.Gen, r.GenCPU)
			for _, pr := range peers {
				if pr.Type == k.name && pr.Threads == n {
					row += fmt.Sprintf(" %.1f (%.1f) | %.2f (%.2f) | %.0f %% (%.0f %%) | %.0f %% (%.0f %%) |", pr.Prompt, pr.PromptCPU, pr.Gen, pr.GenCPU,
						100*r.Prompt/pr.Prompt, 100*r.PromptCPU/pr.PromptCPU, 100*r.Gen/pr.Gen, 100*r.GenCPU/pr.GenCPU)
				}
			}
			rows = append(rows, row)
			fmt.Fprintln(os.Stderr, row)
		}
		m.Close()
	}
	if *write {
		return nil
	}
	spec := Spec(tensor.Q8_0, tensor.Q8_0)
	fmt.Fprintf(out, "Model: random llama-shaped GGUF, %d layers, width %d, FFN %d, %d/%d heads, vocabulary %d, %.2fB weights; prompt %d tokens, generation %d tokens, median of %d; kernels %s, GOMAXPROCS %d.\n\n",
		spec.Layers, spec.Dim, spec.Hidden, spec.Heads, spec.KVHeads, spec.Vocab, float64(spec.Params())/1e9, *nPrompt, *nGen, *reps, tensor.Kernels(), runtime.GOMAXPROCS(0))
	if len(peers) > 0 {
		fmt.Fprintln(out, "| type | threads | prompt tok/s (per CPU-s) | generation tok/s (per CPU-s) | llama.cpp prompt | llama.cpp generation | prompt ratio | generation ratio |")
		fmt.Fprintln(out, "| --- | --- | --- | --- | --- | --- | --- | --- |")
	} else {
		fmt.Fprintln(out, "| type | threads | prompt tok/s (per CPU-s) | generation tok/s (per CPU-s) |")
		fmt.Fprintln(out, "| --- | --- | --- | --- |")
	}
	for _, r := range rows {
		fmt.Fprintln(out, r)
	}
	return nil
}

func parseKind(s string) (kind, error) {
	if s == "Q4_K_M" {
		return kind{s, tensor.Q4_K, tensor.Q6_K}, nil
	}
	for _, t := range []tensor.DType{tensor.F32, tensor.F16, tensor.BF16, tensor.Q8_0, tensor.Q4_0, tensor.Q4_K, tensor.Q5_K, tensor.Q6_K} {
		if t.String() == s {
			return kind{s, t, t}, nil
		}
	}
	return kind{}, fmt.Errorf("unknown type %q (a weight type or Q4_K_M)", s)
}

// ensureModel writes the benchmark model of kind k unless it exists.
func ensureModel(dir string, k kind) (string, error) {
	path := filepath.Join(dir, fmt.Sprintf("random-0.5b-%v.gguf", k.name))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return "", err
	}
	if err := llama.WriteRandomGGUF(f, Spec(k.t, k.out)); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// measure returns the median prompt and generation speeds in tokens per
// second of wall time and of process CPU time.
func measure(m *llama.Model, threads, nPrompt, nGen, reps int) result {
	pool := tensor.NewPool(threads)
	defer pool.Close()
	r := rand.New(rand.NewPCG(1, 2))
	tokens := make([]int, nPrompt+nGen)
	for i := range tokens {
		tokens[i] = 3 + r.IntN(m.Vocab-3)
	}
	s := m.NewState(nPrompt+nGen+1, pool)
	ctx := context.Background()
	// A first pass pages the weights in.
	if _, err := s.Forward(ctx, tokens[:nPrompt]); err != nil {
		panic(err)
	}
	var ps, gs, pc, gc []float64
	for range reps {
		s.Reset()
		t0, c0 := time.Now(), cpuTime()
		if _, err := s.Forward(ctx, tokens[:nPrompt]); err != nil {
			panic(err)
		}
		ps = append(ps, float64(nPrompt)/time.Since(t0).Seconds())
		pc = append(pc, float64(nPrompt)/(cpuTime()-c0).Seconds())
		t0, c0 = time.Now(), cpuTime()
		for i := range nGen {
			if _, err := s.Forward(ctx, tokens[nPrompt+i:nPrompt+i+1]); err != nil {
				panic(err)
			}
		}
		gs = append(gs, float64(nGen)/time.Since(t0).Seconds())
		gc = append(gc, float64(nGen)/(cpuTime()-c0).Seconds())
	}
	med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
	return result{Threads: threads, Prompt: med(ps), Gen: med(gs), PromptCPU: med(pc), GenCPU: med(gc)}
}
