// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// How the example shows what it decoded: one readable line per fact, and the report as a table.

/// A type the example can decode, with its name on the command line and a readable summary.
protocol DemoModel: Codable {
    /// Lines that show the decoded value, indented by the caller.
    var summary: [String] { get }
}

extension Feed: DemoModel {
    var summary: [String] {
        var lines = [
            "Feed #\(id) \"\(title)\" (\(isPublic ? "public" : "private")), generated \(format(generatedAt))",
            "  next page: \(nextCursor ?? "none"), \(pageSize) posts per page",
            "  owner:",
        ]
        lines += owner.summary.map { "    " + $0 }
        lines.append("  \(posts.count) posts:")
        lines += posts.flatMap { $0.summary.map { "    " + $0 } }
        return lines
    }
}

extension User: DemoModel {
    var summary: [String] {
        [
            "@\(userName) (\(displayName)), user #\(id)\(verified ? ", verified" : ""), plan \(plan.rawValue)",
            "joined \(format(joined)), avatar \(avatarURL?.absoluteString ?? "none")",
        ]
    }
}

extension Post: DemoModel {
    var summary: [String] {
        var lines = [
            "\(Self.kind) #\(id), \(format(createdAt)), \(likes) likes, \(visibility.rawValue)"
                + (pinned ? ", pinned" : "") + (tags.isEmpty ? "" : ", tags: " + tags.joined(separator: ", "))
        ]
        switch self {
        case let post as TextPost:
            lines.append("  \"\(post.body)\"")
        case let post as PhotoPost:
            lines.append("  \(post.url.absoluteString), \(post.size.width)×\(post.size.height)")
        case let post as PollPost:
            let results = zip(post.options, post.votes).map { "\($0) \($1)" }
            lines.append("  \(post.question) \(results.joined(separator: " · "))")
        default:
            break
        }
        return lines
    }
}

extension Array: DemoModel where Element: DemoModel {
    var summary: [String] {
        enumerated().flatMap { index, element in
            element.summary.enumerated().map { line, text in (line == 0 ? "[\(index)] " : "    ") + text }
        }
    }
}

extension JSONValue: DemoModel {
    var summary: [String] { description.split(separator: "\n").map(String.init) }
}

/// A date as ISO 8601 in UTC: unambiguous, whatever form the JSON used.
func format(_ date: Date) -> String {
    date.formatted(.iso8601)
}

/// The report as a table with the columns path, kind and message.
func reportTable(_ report: DecodingReport) -> [String] {
    guard !report.isEmpty else { return ["Nothing was forgiven: the document matched the model exactly."] }
    let header = ("path", "kind", "message")
    let rows = report.issues.map { ($0.path.isEmpty ? "(top level)" : $0.path, $0.kind.rawValue, $0.message) }
    let pathWidth = rows.map(\.0.count).max().map { Swift.max($0, header.0.count) } ?? header.0.count
    let kindWidth = rows.map(\.1.count).max().map { Swift.max($0, header.1.count) } ?? header.1.count
    func line(_ row: (String, String, String)) -> String {
        row.0.padding(toLength: pathWidth, withPad: " ", startingAt: 0) + " | "
            + row.1.padding(toLength: kindWidth, withPad: " ", startingAt: 0) + " | " + row.2
    }
    let rule =
        String(repeating: "-", count: pathWidth) + "-+-" + String(repeating: "-", count: kindWidth) + "-+-"
        + String(repeating: "-", count: 7)
    return [line(header), rule] + rows.map(line)
}
