// Package backend holds what every capability package shares: a generic
// registry of drivers in the style of database/sql, the [Config] a driver is
// opened with, and the adapter that turns a backend's push callback into an
// iter.Seq2.
//
// A capability package declares its registry once:
//
//	// inside package align
//	var drivers = backend.NewRegistry[Backend]("align")
//	func Register(d Driver) { drivers.Register(d) }
//
// and a backend registers itself from init:
//
//	// inside package mydriver
//	func init() { align.Register(align.Driver{Name: "go", Open: open}) }
//
// Selection order is: an explicit name, then the highest-priority driver that
// is compiled in. Backends are never probed one after another.
package backend
