// Package llm runs language models for the generation endpoints (Messages,
// Responses, Chat Completions).
//
// # Backends
//
// A language-model [Driver] registers itself from init. No language-model
// driver is in this build yet: the server validates and routes generation
// requests and answers 501 capability_unavailable for models it cannot run.
package llm
