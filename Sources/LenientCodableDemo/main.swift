// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

/// The runnable example: decodes a JSON document shipped with the package (or a file given on
/// the command line), prints the model, and encodes it back.
///
///     swift run lenient-demo [path/to/document.json]

struct Bookstore: Codable {
    struct Store: Codable {
        var name: String
        var city: String
    }

    struct Book: Codable {
        struct Extra: Codable {
            var desc: String
        }

        var id: Int
        var name: String
        var page: Int
        var price: Decimal
        var inStock: Bool
        var tags: [String]
        var ext: Extra
    }

    var status: String
    var generatedAt: Date
    var store: Store
    var books: [Book]
}

func loadDocument() throws -> Data {
    let arguments = CommandLine.arguments.dropFirst()
    if let path = arguments.first {
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
    guard let url = Bundle.module.url(forResource: "bookstore", withExtension: "json", subdirectory: "Payloads") else {
        throw CocoaError(.fileNoSuchFile)
    }
    return try Data(contentsOf: url)
}

do {
    let data = try loadDocument()
    let decoder = LenientJSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    let bookstore = try decoder.decode(Bookstore.self, from: data)

    print("Decoded \(bookstore.books.count) books from \(bookstore.store.name), \(bookstore.store.city):")
    for book in bookstore.books {
        let stock = book.inStock ? "in stock" : "sold out"
        print("  #\(book.id) \(book.name) — \(book.page) pages, \(book.price) EUR, \(stock); \(book.ext.desc)")
    }

    let encoder = LenientJSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    print("\nEncoded back:")
    print(String(decoding: try encoder.encode(bookstore), as: UTF8.self))
} catch {
    print("Could not decode the document: \(error)")
    exit(1)
}
