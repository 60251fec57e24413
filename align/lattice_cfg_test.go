package align

import "github.com/sottolabs/sotto/backend"

func backendConfig() backend.Config { return backend.Config{Model: "Sotto/Lattice-2"} }
