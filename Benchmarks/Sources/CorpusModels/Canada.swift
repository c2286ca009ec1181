// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `canada.json`: a GeoJSON feature collection whose only feature is a polygon, so
// nearly all of the document is `[[[Double]]]`.

package struct FeatureCollection: Codable, Sendable {
    package var type: String
    package var features: [Feature]
}

package struct Feature: Codable, Sendable {
    package var type: String
    package var properties: [String: String]
    package var geometry: Geometry
}

package struct Geometry: Codable, Sendable {
    package var type: String
    /// Rings of [longitude, latitude] points.
    package var coordinates: [[[Double]]]
}
