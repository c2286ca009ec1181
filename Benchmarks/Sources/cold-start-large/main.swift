// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The cold-start measure in a binary that also holds 20 000 unrelated protocol conformances, as a large
// app does: every first runtime question about a type scans them. See Benchmarks/README.md.
//
//     swift run -c release --package-path Benchmarks --scratch-path .build-bench cold-start-large [--rounds N]

import ColdFillers
import ColdModels

// Read so that the fillers' module, and its conformance records, are linked in.
precondition(coldFillerCount > 0)
ColdStart.main(label: "cold-large")
