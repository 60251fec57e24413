package server

// Streamed tool calls. A backend that reads tool calls as the model writes
// them (the Go engine, through chattemplate.Splitter) emits llm.Token.Call
// deltas: a call's first delta names it, the following ones carry pieces
// of its JSON arguments. Each streaming front end passes them on as its
// protocol does, as soon as they arrive:
//
//	Chat Completions  delta.tool_calls[{index, id, type, function: {name, arguments}}],
//	                  then {index, function: {arguments}} pieces
//	Responses         response.output_item.added (a function_call item),
//	                  response.function_call_arguments.delta … .done,
//	                  response.output_item.done
//	Messages          content_block_start (a tool_use block), input_json_delta
//	                  pieces, content_block_stop
//
// A call the backend reports only at the end (an upstream, a backend that
// does not stream calls) is written whole after the streamed ones, as one
// argument delta. The final calls (genResult.toolCalls) keep the IDs the
// stream announced.

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/llm"
)

// streamedCalls keeps the calls a streaming front end has announced.
type streamedCalls struct {
	prefix string   // of the IDs the server assigns: "call_", "toolu_"
	ids    []string // by index
}

// start records the call that d announces and returns its ID: the
// model's, or a new one.
func (sc *streamedCalls) start(d llm.ToolCallDelta) string {
	id := d.ID
	if id == "" {
		id = newID(sc.prefix)
	}
	sc.ids = append(sc.ids, id)
	return id
}

// n returns the number of calls announced.
func (sc *streamedCalls) n() int { return len(sc.ids) }

// result returns the result's calls, every one with an ID: the announced
// calls keep the IDs the stream gave them.
func (sc *streamedCalls) result(calls []llm.ToolCall) []llm.ToolCall {
	out := withCallIDs(calls, sc.prefix)
	for i := range out {
		if i < len(sc.ids) {
			out[i].ID = sc.ids[i]
		}
	}
	return out
}

// genCall adapts a front end's writer of call deltas as genDelta does for
// text: a client that has gone away stops the generation.
func genCall(ctx context.Context, write func(llm.ToolCallDelta) error) func(llm.ToolCallDelta) error {
	return func(d llm.ToolCallDelta) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := write(d); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("%w: writing the stream: %v", context.Canceled, err)
		}
		return nil
	}
}
