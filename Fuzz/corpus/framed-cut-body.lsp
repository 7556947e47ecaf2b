Content-Length: 225

{"jsonrpc":"2.0","id":1,"method":"ini