package ui

// Minimum terminal size.
const minW, minH = 80, 24

// rect is a box on screen: its outer position and size (border included).
type rect struct{ x, y, w, h int }

// layout is where each pane goes. In tab mode one pane fills the body and the others
// are reached by the tab bar; in grid mode the focused (or last) configuration pane
// is top left, the run pane bottom left, curves top right, heatmap bottom right. The
// Runs pane, and any pane zoomed with z, fills the body in both modes.
type layout struct {
	tabs                      bool
	tooSmall                  bool
	header, footer            int
	body                      rect
	config, run, curves, heat rect // grid mode
}

// rectOf returns the box of pane p: the body in tab mode; in grid mode the box of its
// slot (paneDecls), the body for the panes of slotBody.
func (l layout) rectOf(p paneID) rect {
	if l.tabs {
		return l.body
	}
	return l.rectOfSlot(p.decl().slot)
}

// rectOfSlot returns the box of slot s in grid mode: the configuration box top left, the
// run log bottom left, the curves top right, the heatmap bottom right, else the body.
// This switch and heatFocused are the layout's knowledge of which pane goes where.
func (l layout) rectOfSlot(s slot) rect {
	switch s {
	case slotConfig:
		return l.config
	case slotLog:
		return l.run
	case slotChart:
		return l.curves
	case slotMatrix:
		return l.heat
	}
	return l.body
}

// heatFocused returns l with the right column's split turned over in grid mode: the
// focused heatmap takes 66% of the body's height, the curves the rest, so a Gram matrix
// of 200 samples gets about twice the cells. Tab mode and a too-small terminal are
// returned as they are.
func (l layout) heatFocused() layout {
	if l.tabs || l.tooSmall {
		return l
	}
	ch := l.body.h - l.body.h*66/100
	l.curves.h = ch
	l.heat.y, l.heat.h = l.body.y+ch, l.body.h-ch
	return l
}

// layoutFor computes the layout of a w×h terminal whose help footer is footer rows.
func layoutFor(w, h, footer int) layout {
	l := layout{header: 1, footer: footer}
	if w < minW || h < minH {
		l.tooSmall = true
		return l
	}
	l.body = rect{0, l.header, w, h - l.header - footer}
	if w < 120 || h < 34 {
		l.tabs = true
		return l
	}
	lw := max(56, w*46/100)
	rw := w - lw
	th := l.body.h * 58 / 100
	l.config = rect{0, l.body.y, lw, th}
	l.run = rect{0, l.body.y + th, lw, l.body.h - th}
	l.curves = rect{lw, l.body.y, rw, th}
	l.heat = rect{lw, l.body.y + th, rw, l.body.h - th}
	return l
}
