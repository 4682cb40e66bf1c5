# -DKNIGHTSTOUR_SANITIZE=address,undefined (or thread) instruments every target.
set(KNIGHTSTOUR_SANITIZE "" CACHE STRING "Comma-separated sanitizers, e.g. address,undefined")
if(KNIGHTSTOUR_SANITIZE)
  add_compile_options(-fsanitize=${KNIGHTSTOUR_SANITIZE} -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${KNIGHTSTOUR_SANITIZE})
endif()
