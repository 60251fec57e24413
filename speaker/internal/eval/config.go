package main

import "github.com/sottolabs/sotto/backend"

// speakerConfig opens the driver on its default model (the Debian
// pocketsphinx-en-us acoustic model).
func speakerConfig() backend.Config { return backend.Config{Model: "Sotto/Lattice-1"} }
