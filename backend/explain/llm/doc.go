// Package llm implements [explain.Writer] with a language model behind an
// OpenAI-compatible chat completions endpoint on the local network:
// llama.cpp's server, Ollama's /v1, vLLM, or anything else that speaks
// POST /v1/chat/completions.
//
// A [Writer] sends the built-in draft (the plan's actions with their ids,
// kinds, counts and 1-based cue numbers, the built-in prose, the platform,
// the standard and the cue count) as a JSON user message, under a system
// prompt that asks for the same facts in better prose, as one JSON object
// of the [explain.Prose] fields. It asks for temperature 0 and a JSON
// object response format, so that the same draft gets the same answer
// where the server allows it.
//
// The Writer only talks to the model and decodes its answer. Checking
// that the answer names no cue and no action the plan does not have, and
// falling back to the built-in text, is the [explain.Explainer]'s job.
//
// Package llmtest has a fake endpoint for tests; no model runs in them.
package llm
