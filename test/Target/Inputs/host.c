int host_function(int x) { return x + 1; }
