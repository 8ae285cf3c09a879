#pragma once
// A fresh folder of one test under the system's temporary folder, removed afterwards.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

struct ScratchFolder {
  std::filesystem::path root;
  explicit ScratchFolder(const std::string& name)
      : root(std::filesystem::temp_directory_path() / ("benchreport-" + name + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(root);
    std::filesystem::create_directories(root);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  ~ScratchFolder() { std::filesystem::remove_all(root); }
  std::string at(const std::string& relative) const { return (root / relative).string(); }
  // Writes `text` to a file below the root, making its folders.
  void write(const std::string& relative, const std::string& text) const {
    std::filesystem::create_directories((root / relative).parent_path());
    std::ofstream(root / relative, std::ios::binary) << text;
  }
};
