// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// The runnable example. It decodes a messy API response shipped with the package (or a file you
// give it) with LenientJSONDecoder, prints the model and the decoding report, and encodes the
// model back with LenientJSONEncoder, which writes the keys of the models' key mapping and runs
// their encoding hooks.
//
//     swift run lenient-demo                          # the shipped feed
//     swift run lenient-demo --type User user.json    # your own document
//     swift run lenient-demo --envelope               # orders inside an API envelope
//     swift run lenient-demo --help

/// A type the example can decode, as the command line names it.
struct ModelChoice {
    let name: String
    let help: String
    let run: (Data, LenientJSONDecoder) throws -> Void

    init<Model: DemoModel>(_ name: String, _ type: Model.Type, help: String) {
        self.name = name
        self.help = help
        self.run = { data, decoder in try show(Model.self, from: data, decoder: decoder) }
    }
}

let choices = [
    ModelChoice("Feed", Feed.self, help: "a feed with its owner and posts (the shipped payload)"),
    ModelChoice("User", User.self, help: "one user: id, user_name, display_name, avatar, verified, joined, plan"),
    ModelChoice("Post", Post.self, help: "one post; \"type\" picks text, photo or poll"),
    ModelChoice("Posts", [Post].self, help: "an array of posts; elements that cannot be decoded are dropped"),
    ModelChoice("JSON", JSONValue.self, help: "any JSON document, as a JSONValue tree"),
]

let usage = """
    Usage: lenient-demo [--type NAME] [--strict] [PATH]

    Decodes a JSON document with LenientJSONDecoder, prints the model and what the decoder
    forgave, then encodes the model back with LenientJSONEncoder, through the model's key
    mapping and encoding hooks.

      PATH          a JSON file; without it, the feed shipped in Payloads/feed.json
      --type NAME   the model to decode (default: Feed):
    \(choices.map { "                  \($0.name.padding(toLength: 6, withPad: " ", startingAt: 0))\($0.help)" }.joined(separator: "\n"))
      --strict      decode with .strict options, as Foundation's JSONDecoder would
      --envelope    decode the orders of a built-in API envelope at "data.list": a tagged enum,
                    declared defaults, a required id and kept unknown keys
      --help        show this text
    """

/// Decodes, prints the model and the report, and encodes the model back: mapped properties go
/// to their first key (`feed_id`, `meta.next_cursor`), and hooks add their members.
func show<Model: DemoModel>(_ type: Model.Type, from data: Data, decoder: LenientJSONDecoder) throws {
    let (model, report) = try decoder.decodeWithReport(Model.self, from: data)

    print("Decoded \(Model.self):")
    for line in model.summary { print("  " + line) }

    print("\nDecoding report (\(report.issues.count) forgiven):")
    for line in reportTable(report) { print("  " + line) }

    let encoder = LenientJSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let encoded = try encoder.encode(model)
    print("\nEncoded back with LenientJSONEncoder, through the key mapping:")
    print(String(decoding: encoded, as: UTF8.self))

    // The encoded document uses the keys the mapping reads and clean values, so decoding it again
    // should forgive nothing.
    let again = try decoder.decodeWithReport(Model.self, from: encoded).report
    let verdict = again.isEmpty ? "nothing to forgive" : "\(again.issues.count) forgiven"
    print("\nDecoded again from the encoded JSON: \(verdict)")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var typeName = "Feed"
var path: String?
var options = LenientJSONDecoder.Options.lenient
var showsEnvelope = false
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--type":
        guard !arguments.isEmpty else { fail("--type needs a name.\n\n" + usage) }
        typeName = arguments.removeFirst()
    case "--strict":
        options = .strict
    case "--envelope":
        showsEnvelope = true
    default:
        guard path == nil, !argument.hasPrefix("-") else { fail("Unexpected argument \(argument).\n\n" + usage) }
        path = argument
    }
}

if showsEnvelope {
    do {
        try showEnvelope(decoder: LenientJSONDecoder(options: options))
        exit(0)
    } catch {
        fail("\nCould not decode the envelope: \(error)")
    }
}

guard let choice = choices.first(where: { $0.name.lowercased() == typeName.lowercased() }) else {
    fail("Unknown type \(typeName); choose one of \(choices.map(\.name).joined(separator: ", ")).")
}

let data: Data
do {
    if let path {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
    } else if let url = Bundle.module.url(forResource: "feed", withExtension: "json", subdirectory: "Payloads") {
        data = try Data(contentsOf: url)
    } else {
        fail("The shipped payload Payloads/feed.json is missing from the bundle.")
    }
} catch {
    fail("Could not read \(path ?? "the payload"): \(error.localizedDescription)")
}

do {
    try choice.run(data, LenientJSONDecoder(options: options))
} catch {
    // A DecodingError's description names the coding path and what was found.
    fail("\nCould not decode \(choice.name): \(error)")
}
