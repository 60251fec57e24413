package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/server"
	"github.com/sottolabs/sotto/tts"
)

// engine is a backend's default voice as the speed table times it: the
// model ID the server knows it by, its voice, and the engine's own command
// line for the same voice and rate.
type engine struct {
	model, driver string
	voice         tts.Voice
	cliArgs       func(text, out string) []string
}

// speedEngines finds the default English voice of flite and espeak-ng.
func speedEngines(backends map[string]tts.Backend) ([]engine, error) {
	var out []engine
	for _, e := range []struct{ model, driver string }{{"Sotto/Flite", "flite"}, {"Sotto/eSpeak", "espeak-ng"}} {
		v, ok := tts.FindVoice(backends[e.driver], "")
		if !ok {
			return nil, fmt.Errorf("%s has no default voice", e.driver)
		}
		eng := engine{model: e.model, driver: e.driver, voice: v}
		name := strings.TrimPrefix(v.ID, "builtin:")
		if e.driver == "flite" {
			eng.cliArgs = func(text, out string) []string {
				return []string{"-voice", name, "-t", text, "-o", out}
			}
		} else {
			eng.cliArgs = func(text, out string) []string { return []string{"-v", name, "-w", out, text} }
		}
		out = append(out, eng)
	}
	return out, nil
}

// speed times the paragraph through the HTTP server in SSE mode (the
// first speech.audio.delta event read by a client, and the done event),
// beside the engine's own command line on the first sentence alone and on
// the whole paragraph, alternating, in the same run.
func speed(ctx context.Context, w io.Writer, dir string, backends map[string]tts.Backend, runs int) error {
	engines, err := speedEngines(backends)
	if err != nil {
		return err
	}
	m, err := models.New(models.Config{DataDir: filepath.Join(dir, "data"), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	defer m.Close(context.Background())
	loaders.Register(m)
	srv, err := server.New(server.Config{Models: server.ManagedModels(m, server.CatalogExtensions), SpoolDir: dir,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()

	sents, err := tts.Sentences(ctx, paragraph, "en")
	if err != nil {
		return err
	}
	first := strings.SplitAfter(paragraph, ". ")[0]
	fmt.Fprintln(w, "### Speed")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A %d-word paragraph (%d sentences), default voice of each engine, median of %d runs on the shared machine "+
		"(after one warm-up request that loads the model). *SSE first audio* is the time from sending `POST /v1/audio/speech` "+
		"with `stream_format: \"sse\"` (word marks on, the default; and with `x_sotto.marks: false`) to reading the first `speech.audio.delta` event, through a "+
		"local HTTP server in the same process; *SSE whole* is until `speech.audio.done`. The engine's own times are its command "+
		"line (same voice, same settings) writing a WAV file of the first sentence alone and of the whole paragraph, run "+
		"alternately with the requests. RTF = time / audio duration.\n\n", len(strings.Fields(paragraph)), len(sents), runs)
	fmt.Fprintln(w, "| engine | SSE first audio | SSE first audio, marks off | engine CLI, first sentence | SSE whole | engine CLI, whole text | audio | SSE RTF | CLI RTF |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var cold []string
	for _, e := range engines {
		c, _, err := sseSpeech(ctx, ts.URL, e, paragraph, true) // warm-up
		if err != nil {
			return err
		}
		cold = append(cold, fmt.Sprintf("%s %.0f ms", e.driver, c))
		var tFirst, tAll, cFirst, cAll, tBare []float64
		var secs float64
		for range runs {
			f, a, err := sseSpeech(ctx, ts.URL, e, paragraph, true)
			if err != nil {
				return err
			}
			b, _, err := sseSpeech(ctx, ts.URL, e, paragraph, false)
			if err != nil {
				return err
			}
			tBare = append(tBare, b)
			tFirst, tAll = append(tFirst, f), append(tAll, a.ms)
			secs = a.seconds
			for i, text := range []string{first, paragraph} {
				d, err := cli(ctx, dir, e, text)
				if err != nil {
					return err
				}
				if i == 0 {
					cFirst = append(cFirst, d)
				} else {
					cAll = append(cAll, d)
				}
			}
		}
		fmt.Fprintf(w, "| %s (%s) | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.1f s | %.3f | %.3f |\n", e.driver, e.voice.ID,
			median(tFirst), median(tBare), median(cFirst), median(tAll), median(cAll), secs, median(tAll)/1000/secs, median(cAll)/1000/secs)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The warm-up request, the first after the server started (it opens the model and, for flite, loads the "+
		"pronouncing dictionary the word marks use), had its first audio after %s.\n\n", strings.Join(cold, ", "))
	return nil
}

type sseDone struct {
	ms, seconds float64
}

// sseSpeech posts text for SSE synthesis and returns the milliseconds to
// the first audio delta and to the done event (with the audio's length).
func sseSpeech(ctx context.Context, base string, e engine, text string, marks bool) (float64, sseDone, error) {
	body, _ := json.Marshal(map[string]any{"model": e.model, "voice": e.voice.ID, "input": text, "stream_format": "sse",
		"x_sotto": map[string]any{"marks": marks}})
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/v1/audio/speech", bytes.NewReader(body))
	if err != nil {
		return 0, sseDone{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, sseDone{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return 0, sseDone{}, fmt.Errorf("speech: %s: %s", resp.Status, b)
	}
	first := -1.0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 64<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if ev, ok := strings.CutPrefix(line, "event: "); ok {
			event = ev
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		switch event {
		case "speech.audio.delta":
			if first < 0 {
				first = ms(time.Since(start))
			}
		case "speech.audio.done":
			var d struct {
				XSotto struct {
					Seconds float64 `json:"seconds"`
				} `json:"x_sotto"`
			}
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				return 0, sseDone{}, err
			}
			return first, sseDone{ms(time.Since(start)), d.XSotto.Seconds}, nil
		case "error":
			return 0, sseDone{}, errors.New("speech stream failed: " + data)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, sseDone{}, err
	}
	return 0, sseDone{}, errors.New("speech stream ended without speech.audio.done")
}

// cli times the engine's own command line writing a WAV file.
func cli(ctx context.Context, dir string, e engine, text string) (float64, error) {
	cmd := exec.CommandContext(ctx, e.driver, e.cliArgs(text, filepath.Join(dir, "cli.wav"))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, errors.New(e.driver + ": " + err.Error() + ": " + stderr.String())
	}
	return ms(time.Since(start)), nil
}
