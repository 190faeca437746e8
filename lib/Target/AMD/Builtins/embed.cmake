# cmake -DINPUT=<code object> -DOUTPUT=<.inc> -DNAME=<identifier> -P embed.cmake
# Writes the file's bytes as a C array initializer.
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}" "// Generated from ${INPUT} by embed.cmake.\nstatic const unsigned char ${NAME}[] = {\n${bytes}\n};\n")
