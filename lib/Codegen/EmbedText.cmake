# Writes the text of INPUT to OUTPUT as a C++ raw string literal, to be
# #included where a `const char[]` initializer is expected.
#   cmake -DINPUT=<file> -DOUTPUT=<file> -P EmbedText.cmake
file(READ "${INPUT}" text)
file(WRITE "${OUTPUT}.tmp" "R\"matc_embed(${text})matc_embed\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
