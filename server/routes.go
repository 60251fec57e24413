package server

import (
	"net/http"
	"slices"
	"strings"
)

// route is one operation of the API: how it is served and how it is
// described in the OpenAPI document. Every route is listed in routes, the
// only place where paths are registered.
type route struct {
	Method, Path string
	Public       bool // no API key needed
	LimitBody    bool // the 512 MiB body limit applies (answered with 413 before reading)
	Handler      http.HandlerFunc
	Summary      string
	Tag          string
	// Body is "json", "multipart" or "" for none.
	Body string
	// Status is the success status.
	Status int
	// Errors are the error statuses the operation answers with.
	Errors []int
	// Produces lists extra success media types (the first is the default).
	Produces []string
}

var stdErrors = []int{400, 401, 403, 503}

// routes returns every route the server serves.
func (s *Server) routes() []route {
	m := s.models
	return []route{
		{Method: "GET", Path: "/health", Public: true, Handler: s.handleHealth, Tag: "health",
			Summary: "Service health (public, no key)", Status: 200},
		{Method: "GET", Path: "/v1/health", Public: true, Handler: s.handleHealth, Tag: "health",
			Summary: "Service health, versioned alias (public, no key)", Status: 200},
		{Method: "GET", Path: "/v1/openapi.json", Public: true, Handler: s.handleOpenAPI, Tag: "meta",
			Summary: "This OpenAPI 3.1 description", Status: 200},

		{Method: "GET", Path: "/v1/models", Handler: s.handleModels, Tag: "models",
			Summary: "List the model catalog, downloaded or not", Status: 200, Errors: []int{401, 403, 503}},
		{Method: "GET", Path: "/v1/models/{id...}", Handler: s.handleGetModel, Tag: "models",
			Summary: "One catalog entry, as GET /v1/models lists it", Status: 200, Errors: []int{401, 403, 404}},
		{Method: "DELETE", Path: "/v1/models/{id...}", Handler: s.handleDeleteModel, Tag: "models",
			Summary: "Delete a model from this host: its downloaded files, and the catalog entry of an imported model",
			Status:  200, Errors: []int{400, 401, 403, 404, 409}},
		{Method: "POST", Path: "/v1/models/download", Handler: s.modelAction(http.StatusAccepted, m.StartDownload),
			Tag: "models", Body: "json", Summary: "Start downloading a catalog model in the background",
			Status: 202, Errors: []int{400, 401, 403, 404, 503}},
		{Method: "GET", Path: "/v1/models/downloads", Handler: s.handleDownloads, Tag: "models",
			Summary: "List download jobs and their progress", Status: 200, Errors: []int{401, 403, 503}},
		{Method: "POST", Path: "/v1/models/download/cancel", Handler: s.modelAction(http.StatusOK, m.CancelDownload),
			Tag: "models", Body: "json", Summary: "Cancel an active download (asynchronous)",
			Status: 200, Errors: []int{400, 401, 403, 404, 503}},
		{Method: "POST", Path: "/v1/models/load", Handler: s.modelAction(http.StatusOK, m.Load), Tag: "models",
			Body: "json", Summary: "Load a downloaded model into memory", Status: 200,
			Errors: []int{400, 401, 403, 404, 503}},
		{Method: "GET", Path: "/v1/models/running", Handler: s.handleRunning, Tag: "models",
			Summary: "Loaded models, runtime state and queues", Status: 200, Errors: []int{401, 403, 503}},
		{Method: "POST", Path: "/v1/models/unload", Handler: s.modelAction(http.StatusOK, m.Unload), Tag: "models",
			Body: "json", Summary: "Unload a model and release its memory", Status: 200,
			Errors: []int{400, 401, 403, 404, 409, 503}},

		{Method: "POST", Path: "/v1/text/segmentations", Handler: s.handleSegmentation, Tag: "text", Body: "json",
			Summary: "Split text or timed segments into sentences, paragraphs or cues", Status: 200, Errors: stdErrors},
		{Method: "POST", Path: "/v1/text/normalizations", Handler: s.handleNormalization, Tag: "text", Body: "json",
			Summary: "Text normalization (tn) and inverse normalization (itn) with ranked alternatives",
			Status:  200, Errors: []int{400, 401, 403, 404, 422, 503}},

		{Method: "POST", Path: "/v1/audio/transcriptions", LimitBody: true, Handler: s.handleTranscription,
			Tag: "audio", Body: "multipart", Summary: "Transcribe an audio or video file", Status: 200,
			Errors:   []int{400, 401, 403, 404, 413, 422, 501, 503},
			Produces: []string{"application/json", "text/plain", "application/x-subrip", "text/vtt", "text/event-stream"}},
		{Method: "POST", Path: "/v1/audio/alignments", LimitBody: true, Handler: s.handleAlignment,
			Tag: "audio", Body: "multipart", Summary: "Forced alignment of a transcript to audio", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 422, 501, 503}, Produces: []string{"application/json", "application/x-ndjson"}},
		{Method: "POST", Path: "/v1/audio/speech", LimitBody: true, Handler: s.handleSpeech, Tag: "audio",
			Body: "json", Summary: "Synthesize speech", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 422, 501, 503}, Produces: []string{"audio/wav", "text/event-stream"}},
		{Method: "GET", Path: "/v1/audio/voices", Handler: s.handleVoices, Tag: "audio",
			Summary: "List the builtin voices of the speech models and the saved user voices (?model= for one model's)", Status: 200, Errors: []int{400, 401, 403, 404, 503}},
		{Method: "POST", Path: "/v1/audio/voices", Handler: s.handleCreateVoice, Tag: "audio", Body: "json",
			Summary: "Save a user voice (base voice, design, style, speed, pitch; a reference recording for the voice-cloning model)", Status: 201, Errors: []int{400, 401, 403, 404, 422, 501, 503}},
		{Method: "GET", Path: "/v1/audio/voices/{id}", Handler: s.handleGetVoice, Tag: "audio",
			Summary: "Get a saved user voice", Status: 200, Errors: []int{401, 403, 404, 501}},
		{Method: "PATCH", Path: "/v1/audio/voices/{id}", Handler: s.handleUpdateVoice, Tag: "audio", Body: "json",
			Summary: "Change fields of a saved user voice", Status: 200, Errors: []int{400, 401, 403, 404, 422, 501, 503}},
		{Method: "DELETE", Path: "/v1/audio/voices/{id}", Handler: s.handleDeleteVoice, Tag: "audio",
			Summary: "Delete a saved user voice", Status: 200, Errors: []int{401, 403, 404, 501}},

		{Method: "POST", Path: "/v1/speaker/embeddings", LimitBody: true, Handler: s.handleEmbeddings,
			Tag: "speaker", Body: "multipart", Summary: "Speaker embedding (256 numbers) of an audio file",
			Status: 200, Errors: []int{400, 401, 403, 404, 413, 422, 501, 503}},
		{Method: "POST", Path: "/v1/speaker/timelines", LimitBody: true, Handler: s.handleTimelines,
			Tag: "speaker", Body: "multipart", Summary: "Speaker timeline (who spoke when) of an audio file, JSON or RTTM",
			Status: 200, Errors: []int{400, 401, 403, 404, 413, 501, 503}, Produces: []string{"application/json", "text/plain"}},
		{Method: "POST", Path: "/v1/speaker/similarity", Handler: s.handleSimilarity, Tag: "speaker", Body: "json",
			Summary: "Cosine similarity of two speaker embeddings", Status: 200, Errors: []int{400, 401, 403, 404, 503}},

		{Method: "POST", Path: "/v1/messages", LimitBody: true, Handler: s.handleMessages, Tag: "generation",
			Body: "json", Summary: "Messages-style generation", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 501, 503}, Produces: []string{"application/json", "text/event-stream"}},
		{Method: "POST", Path: "/v1/messages/count_tokens", LimitBody: true, Handler: s.handleCountTokens, Tag: "generation",
			Body: "json", Summary: "Count the input tokens of a Messages request", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 501, 503}},
		{Method: "POST", Path: "/v1/responses", LimitBody: true, Handler: s.handleResponses, Tag: "generation",
			Body: "json", Summary: "Responses-style generation", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 501, 503}, Produces: []string{"application/json", "text/event-stream"}},
		{Method: "GET", Path: "/v1/responses/{id}", Handler: s.handleGetResponse, Tag: "generation",
			Summary: "Get a stored response", Status: 200, Errors: []int{401, 403, 404}},
		{Method: "GET", Path: "/v1/responses/{id}/input_items", Handler: s.handleInputItems, Tag: "generation",
			Summary: "List the input items of a stored response", Status: 200, Errors: []int{400, 401, 403, 404}},
		{Method: "DELETE", Path: "/v1/responses/{id}", Handler: s.handleDeleteResponse, Tag: "generation",
			Summary: "Delete a stored response", Status: 200, Errors: []int{401, 403, 404}},
		{Method: "POST", Path: "/v1/chat/completions", LimitBody: true, Handler: s.handleChat,
			Tag: "generation", Body: "json", Summary: "Chat Completions-style generation", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 501, 503}, Produces: []string{"application/json", "text/event-stream"}},
		{Method: "POST", Path: "/v1/tokenize", LimitBody: true, Handler: s.handleTokenize, Tag: "generation",
			Body: "json", Summary: "Tokenize text with a language model's tokenizer", Status: 200,
			Errors: []int{400, 401, 403, 404, 413, 501, 503}},

		{Method: "OPTIONS", Path: "/", Public: true, Handler: s.handlePreflight, Tag: "meta",
			Summary: "CORS preflight for allowed origins", Status: 204},
	}
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "license": "active"})
}

// handlePreflight answers an OPTIONS request that is not a CORS preflight
// from an allowed origin (those are answered by the middleware): 204 with
// an Allow header naming the methods the path serves (HEAD with GET), or
// 404 for a path no route serves.
func (s *Server) handlePreflight(w http.ResponseWriter, r *http.Request) {
	var allow []string
	// A path without wildcards (/v1/models/download) is served by its
	// own routes only, not by the wildcard route it also matches
	// (/v1/models/{id...}); see exactRoute.
	exact := slices.ContainsFunc(s.routes(), func(rt route) bool { return rt.Path == r.URL.Path })
	for _, rt := range s.routes() {
		if rt.Method == "OPTIONS" || slices.Contains(allow, rt.Method) ||
			exact && rt.Path != r.URL.Path || !pathMatches(rt.Path, r.URL.Path) {
			continue
		}
		allow = append(allow, rt.Method)
		if rt.Method == "GET" {
			allow = append(allow, "HEAD")
		}
	}
	if len(allow) == 0 {
		s.handleNoRoute(w, r)
		return
	}
	w.Header().Set("Allow", strings.Join(append(allow, "OPTIONS"), ", "))
	w.WriteHeader(http.StatusNoContent)
}
