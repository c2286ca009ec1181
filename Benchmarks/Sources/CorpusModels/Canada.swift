// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `canada.json`: a GeoJSON feature collection whose only feature is a polygon, so
// nearly all of the document is `[[[Double]]]`.

public struct FeatureCollection: Codable, Sendable {
    public var type: String
    public var features: [Feature]
}

public struct Feature: Codable, Sendable {
    public var type: String
    public var properties: [String: String]
    public var geometry: Geometry
}

public struct Geometry: Codable, Sendable {
    public var type: String
    /// Rings of [longitude, latitude] points.
    public var coordinates: [[[Double]]]
}
