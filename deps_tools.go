//go:build tools

// Package tools pins the stack before every package imports it; delete once all are used.
package tools

import (
	_ "github.com/NimbleMarkets/ntcharts/linechart"
	_ "github.com/charmbracelet/bubbles/help"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/sbinet/npyio"
	_ "gonum.org/v1/gonum/mat"
	_ "gonum.org/v1/netlib/blas/netlib"
	_ "gonum.org/v1/plot"
	_ "github.com/schollz/progressbar/v3"
	_ "gopkg.in/yaml.v3"
)

