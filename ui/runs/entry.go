package runs

import "gitui/model/store"

// Entry is one past run as the table lists it: store.Entry, read from its run directory
// (or a lone result.json) by store.Load.
type Entry = store.Entry
