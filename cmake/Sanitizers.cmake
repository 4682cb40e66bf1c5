# -DKNIGHTSTOUR_SANITIZE=address,undefined instruments every target. (thread works only with
# a oneTBB built with -fsanitize=thread: Debian's is not, and every task hand-off then shows
# as a race; scripts/tsan builds one and the `tsan` preset uses it.)
set(KNIGHTSTOUR_SANITIZE "" CACHE STRING "Comma-separated sanitizers, e.g. address,undefined")
if(KNIGHTSTOUR_SANITIZE)
  add_compile_options(-fsanitize=${KNIGHTSTOUR_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${KNIGHTSTOUR_SANITIZE})
endif()
