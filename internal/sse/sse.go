// Package sse reads Server-Sent Events streams (the text/event-stream
// format of the HTML standard), as the generation endpoints and their
// upstreams send them:
//
//	err := sse.Read(resp.Body, func(name, data string) error {
//		if data == "[DONE]" {
//			return sse.ErrDone
//		}
//		...
//	})
//
// Writing events is the server's job (server/sse.go); this package is the
// client side, shared by the server's remote upstreams and the CLIs.
package sse

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// MaxEvent is the largest event (all its data lines) Read accepts.
const MaxEvent = 16 << 20

// ErrDone may be returned by Read's callback to stop reading at a
// protocol's terminal event; Read then returns nil.
var ErrDone = errors.New("sse: done")

// Read reads events from r until it ends, calling fn with each event's name
// ("" when the event has none) and its data (data lines joined by "\n").
// Comment lines and fields other than event and data are skipped; an event
// without data lines is not dispatched, as the standard says. An error from
// fn stops the reading and is returned, except ErrDone, which ends it
// without error. A line longer than MaxEvent is an error.
func Read(r io.Reader, fn func(name, data string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxEvent)
	var name string
	var data []string
	dispatch := func() error {
		defer func() { name, data = "", nil }()
		if len(data) == 0 {
			return nil
		}
		return fn(name, strings.Join(data, "\n"))
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			if err := dispatch(); err != nil {
				return done(err)
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			name = value
		case "data":
			data = append(data, value)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return done(dispatch())
}

func done(err error) error {
	if errors.Is(err, ErrDone) {
		return nil
	}
	return err
}
