// Package theme holds the workbench's semantic colour roles (Theme) and the lipgloss
// styles derived from them (Styles).
//
// # Overview
//
// Styles are built once per output by NewStyles and handed to every pane, so that no
// pane creates styles while rendering. Colours are CompleteAdaptiveColor values: each
// role states its true-colour, 256-colour and 16-colour value for light and dark
// backgrounds, and lipgloss picks by the renderer's profile. Under the Ascii profile
// (NO_COLOR, TERM=dumb, tests) Styles.Color is false and panes draw shade runes and
// glyphs instead of colours.
//
// # Shapes
//
// Theme.Scale has k colours; Styles.Cells is k×k ('▀' foreground × background).
//
// # Errors
//
// Nothing here returns errors or panics.
//
// # Concurrency
//
// Styles are values; sharing them between goroutines is safe as long as nobody mutates them.
package theme
