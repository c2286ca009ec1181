// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The first decode of each of 200 model types in a fresh process: see Benchmarks/README.md.
//
//     swift run -c release --package-path Benchmarks --scratch-path .build-bench cold-start [--rounds N]

import ColdModels

ColdStart.main(label: "cold")
