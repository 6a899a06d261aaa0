package study

import (
	"gitui/model"
	"gitui/model/store"
)

// The study directory's files, schemas and study.json types live in model/store (the
// store holds the run and study directories); these names are kept for callers.
const (
	TrialsFile   = store.TrialsFile
	DamagedFile  = store.TrialsDamagedFile
	SpecFile     = store.SpecFile
	StudyFile    = store.StudyFile
	BestSpecFile = store.BestSpecFile
	RefitDir     = store.RefitDir
	SplitFile    = store.SplitFile
	LockFile     = store.StudyLockFile
	TrialsSchema = store.TrialsFormat
	StudySchema  = store.StudySchema
)

// File is study.json (store.Study).
type File = store.Study

// TrialInfo is one trial of study.json (store.TrialInfo).
type TrialInfo = store.TrialInfo

// RungInfo is a trial's score at one rung (store.RungInfo).
type RungInfo = store.RungInfo

// BestInfo is study.json's best configuration (store.BestInfo).
type BestInfo = store.BestInfo

// TopInfo is one refit of the study's top trials (store.TopInfo).
type TopInfo = store.TopInfo

// Refit is a trial refit and tested (store.Refit), embedded in BestInfo and TopInfo.
type Refit = store.Refit

// SpecHash returns the hex SHA-256 of the study spec's canonical JSON
// (store.CanonicalSpec), as trials.jsonl's header records it; "" if it cannot be encoded.
func SpecHash(s *model.Spec) string {
	h, _ := store.SpecHash(s)
	return h
}
