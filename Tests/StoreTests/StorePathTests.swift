// The store's path is normalised lexically before its directories are created.

import Testing
@testable import Store

@Suite struct StorePathTests {
    @Test(arguments: [
        ("./a/../b/", "b"), ("a/../b", "b"), ("/x/a/../b/c/", "/x/b/c"), ("/..", "/"), ("/../x", "/x"), ("..", ".."),
        ("../../x", "../../x"), ("a/..", "."), (".", "."), ("./", "."), ("a//b/./c", "a/b/c"), ("/", "/"), ("a/b/../../..", ".."),
    ])
    func lexicallyNormal(path: String, expected: String) {
        #expect(StoreDirectory.lexicallyNormal(path) == expected)
    }
}
