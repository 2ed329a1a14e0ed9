import LayoutdClient
let client = try await AsyncLayoutClient()
print(try await client.layout("Hello, world", width: 300).lines.count)
