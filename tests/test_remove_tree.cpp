// remove_tree(): what TemporaryDirectory and the tests' scratch folders are removed with.
#include <gtest/gtest.h>

#include <fstream>

#include "src/util/remove_tree.h"
#include "src/util/temporary_directory.h"
#include "tests/test_support.h"

namespace eie {
namespace {

TEST(RemoveTree, RemovesNestedFoldersAndLinksButNotWhatLinksPointTo) {
  const auto dir = test::scratch_dir("remove-tree");
  const auto outside = dir / "outside";
  std::filesystem::create_directories(outside);
  std::ofstream(outside / "kept") << "kept";
  const auto tree = dir / "tree";
  std::filesystem::create_directories(tree / "a" / "b" / "c");
  std::ofstream(tree / "a" / "b" / "c" / "file") << "x";
  std::ofstream(tree / "top") << "y";
  std::filesystem::create_directory_symlink(outside, tree / "a" / "link");
  EXPECT_TRUE(remove_tree(tree));
  EXPECT_FALSE(std::filesystem::exists(tree));
  EXPECT_TRUE(std::filesystem::exists(outside / "kept"));
  EXPECT_TRUE(remove_tree(tree)) << "a missing path is no error";
  // A plain file, and a link to a folder: removed themselves, the target stays.
  std::ofstream(dir / "plain") << "z";
  EXPECT_TRUE(remove_tree(dir / "plain"));
  EXPECT_FALSE(std::filesystem::exists(dir / "plain"));
  std::filesystem::create_directory_symlink(outside, dir / "alias");
  EXPECT_TRUE(remove_tree(dir / "alias"));
  EXPECT_FALSE(std::filesystem::is_symlink(dir / "alias"));
  EXPECT_TRUE(std::filesystem::exists(outside / "kept"));
}

TEST(RemoveTree, TemporaryDirectoryLeavesNothing) {
  std::filesystem::path path;
  {
    const TemporaryDirectory temporary("eie-test-remove");
    path = temporary.path();
    std::filesystem::create_directories(path / "x" / "y");
    std::ofstream(path / "x" / "y" / "z") << "z";
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace eie
