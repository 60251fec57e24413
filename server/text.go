package server

import (
	"net/http"

	"github.com/sottolabs/sotto"
)

func (s *Server) handleNormalization(w http.ResponseWriter, r *http.Request) {
	s.writeError(w, r, sotto.NotImplemented("capability_unavailable", "normalization is not wired yet"))
}

func (s *Server) handleSegmentation(w http.ResponseWriter, r *http.Request) {
	s.writeError(w, r, sotto.NotImplemented("capability_unavailable", "segmentation is not wired yet"))
}
