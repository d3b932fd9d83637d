// Forged and damaged HDF5 model files: a string length made huge, a global heap object
// grown past its collection, blocks zeroed. Each must end in one line naming the file
// and what was wrong with it, quickly and without asking for memory the file cannot
// justify; never a crash or the name of a libhdf5 call.
#include <H5Cpp.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>
#include <regex>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/io/h5_attribute_check.h"
#include "src/io/h5_file.h"
#include "src/problem/registry.h"
#include "tests/cli_support.h"
#include "tests/test_support.h"

namespace eie {
namespace {

using test::expect_clean_failure;

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

uint64_t little_endian(const std::string& bytes, size_t at, size_t width) {
  uint64_t value = 0;
  for (size_t i = width; i-- > 0;) value = (value << 8) | static_cast<uint8_t>(bytes[at + i]);
  return value;
}

void put_little_endian(std::string& bytes, size_t at, size_t width, uint64_t value) {
  for (size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

// A small model as older eie versions and h5py write it: the string attribute `name`
// variable-length, its value in the global heap.
std::filesystem::path model_with_variable_string(const std::filesystem::path& dir,
                                                 const std::string& name) {
  auto agent = make_agent(make_problem("tsp"), test::small_network(16, 2, 16, 1), 20);
  const auto path = dir / "model.h5";
  save_model(*agent, path);
  H5::H5File file(path.string(), H5F_ACC_RDWR);
  auto root = file.openGroup("/");
  std::string value;
  const auto fixed = root.openAttribute(name);
  fixed.read(fixed.getStrType(), value);
  root.removeAttr(name);
  H5::StrType type(H5::PredType::C_S1, H5T_VARIABLE);
  root.createAttribute(name, type, H5::DataSpace(H5S_SCALAR)).write(type, value);
  return path;
}

// Offset of the variable-length descriptor of a string of `length` bytes (4 bytes of
// length, then the 8-byte address of a global heap collection, then 4 bytes of index).
size_t descriptor_offset(const std::string& bytes, uint64_t length) {
  for (size_t at = 0; at + 16 <= bytes.size(); ++at) {
    const auto heap = little_endian(bytes, at + 4, 8);
    if (little_endian(bytes, at, 4) == length && heap > 0 && heap + 4 <= bytes.size() &&
        bytes.compare(heap, 4, "GCOL") == 0) {
      return at;
    }
  }
  return std::string::npos;
}

struct MeasuredRun {
  test::Run run;
  double seconds;   // wall time of the eie process
  double peak_mib;  // its peak resident memory
};

// `eie ARGS --threads 1`, its own peak memory taken from wait4.
MeasuredRun measured_eie(const std::string& args, const std::filesystem::path& dir) {
  const auto out = dir / "stdout", err = dir / "stderr";
  const std::string command = "exec " + std::string(EIE_BINARY) + " " + args + " --threads 1 >" +
                              out.string() + " 2>" + err.string();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {{WEXITSTATUS(status), test::slurp(err), test::slurp(out)},
          seconds,
          static_cast<double>(usage.ru_maxrss) / 1024};
}

// The string `policy` ("attention_model") claims 1.44e9 bytes: libhdf5 would allocate
// and fill that much before looking at the heap.
TEST(Reliability, AForgedStringLengthEndsInOneQuickLine) {
  const auto dir = test::scratch_dir("reliability-forged-string");
  const auto model = model_with_variable_string(dir, "policy");
  ASSERT_EQ(load_agent(model, make_problem("tsp"))->spec().at("policy"),
            Attribute("attention_model"));
  const auto original = read_bytes(model);
  const auto at = descriptor_offset(original, std::string("attention_model").size());
  ASSERT_NE(at, std::string::npos);

  auto forged = original;
  put_little_endian(forged, at, 4, 1440000000);
  const auto forged_model = dir / "forged.h5";
  write_bytes(forged_model, forged);
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)load_agent(forged_model, make_problem("tsp"));
    ADD_FAILURE() << "the forged model loaded";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(
        std::string(e.what()).find(forged_model.string() +
                                   ": attribute 'policy' claims a string of 1440000000 bytes"),
        std::string::npos)
        << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);

  const auto data = dir / "tsp.h5";
  ASSERT_EQ(test::eie("gen --n 10 --count 2 --out " + data.string()).exit_code, 0);
  const auto solve =
      measured_eie("solve --dataset " + data.string() + " --model " + forged_model.string(), dir);
  expect_clean_failure(solve.run, "forged.h5: attribute 'policy' claims a string of 1440000000");
  EXPECT_LT(solve.peak_mib, 200) << "MiB";  // LibTorch's own start takes ~170
  EXPECT_LT(solve.seconds, 10);             // ~1 s, LibTorch's start included

  // The heap object grown past its collection: libhdf5 would copy beyond its buffers.
  forged = original;
  const auto heap = little_endian(original, at + 4, 8);
  const auto index = little_endian(original, at + 12, 4);
  size_t object = heap + 16;
  while (little_endian(original, object, 2) != index) {
    object += 16 + (little_endian(original, object + 8, 8) + 7) / 8 * 8;
    ASSERT_LT(object, heap + little_endian(original, heap + 8, 8));
  }
  put_little_endian(forged, object + 8, 8, 1ull << 40);
  write_bytes(forged_model, forged);
  expect_clean_failure(
      test::eie("solve --dataset " + data.string() + " --model " + forged_model.string()),
      "attribute 'policy' is stored in a global heap collection at " + std::to_string(heap) +
          " whose object " + std::to_string(index) + " claims 1099511627776 bytes");
}

// A fuzzer's find: a compact dataset that stores no bytes for its 2 x 2 floats made
// libhdf5 copy from a null buffer (a segfault). Compact and contiguous datasets must
// store exactly what their shape needs.
TEST(Reliability, DatasetsStoringLessThanTheirShapeNeedsAreRefused) {
  expect_clean_failure(
      test::eie("solve --dataset " + test::broken("h5_compact_dataset_without_data.h5").string() +
                " --method savings"),
      "dataset 'depot': stores 0 bytes where its shape needs 16");
}

// Another: forged extents whose product (6.8e30 bytes) fits no integer; the message
// said it through an undefined conversion.
TEST(Reliability, ExtentsBeyondEveryIntegerAreNamed) {
  const auto dir = test::scratch_dir("reliability-huge-extents");
  const auto data = dir / "bpp3d.h5";
  ASSERT_EQ(test::eie("gen --problem bpp3d --n 10 --count 2 --out " + data.string()).exit_code, 0);
  expect_clean_failure(
      test::eie("solve --dataset " + data.string() + " --model " +
                test::broken("h5_model_dataset_of_1e30_bytes.h5").string()),
      "dataset 'model/coarse_logit.weight': claims 6.81e+30 bytes, more than a file of 27144");
}

// Another: the characters of the variable-length string `problem` claim a size of
// their own, and libhdf5 asked for gigabytes to convert 3 of them. eie reads such
// strings from the global heap itself, as the bytes stored there.
TEST(Reliability, VariableLengthStringsAreReadWithoutLibhdf5Converting) {
  const auto dir = test::scratch_dir("reliability-huge-characters");
  const auto solve =
      measured_eie("solve --dataset " + test::broken("h5_string_of_huge_characters.h5").string() +
                       " --method nn",
                   dir);
  expect_clean_failure(solve.run, "missing dataset 'gapacity'");  // the fuzzer's other change
  EXPECT_LT(solve.peak_mib, 200) << "MiB";
}

// Blocks of a model file zeroed in turn, and bytes flipped: loading either works or
// ends in one line naming the file and what eie was reading, never a libhdf5 call.
TEST(Reliability, DamagedModelsNameWhatWasReadNotALibraryCall) {
  const auto dir = test::scratch_dir("reliability-damaged-model");
  const auto model = model_with_variable_string(dir, "policy");
  const auto original = read_bytes(model);
  const auto damaged = dir / "damaged.h5";
  const auto data = dir / "tsp.h5";
  ASSERT_EQ(test::eie("gen --n 10 --count 2 --out " + data.string()).exit_code, 0);
  const std::regex library_call("H5[A-Z][A-Za-z0-9_]*");
  std::mt19937 rng(11);
  int refused = 0;
  int cli_runs = 0;  // of the refused files with flipped bytes, the first 25
  constexpr size_t kBlock = 256;
  for (size_t trial = 0; trial < original.size() / kBlock + 100; ++trial) {
    auto bytes = original;
    if (trial * kBlock < original.size()) {
      std::fill_n(bytes.begin() + trial * kBlock, std::min(kBlock, bytes.size() - trial * kBlock),
                  0);
    } else {
      for (int k = 0; k < 8; ++k)
        bytes[rng() % bytes.size()] ^= static_cast<char>(1 << (rng() % 8));
    }
    write_bytes(damaged, bytes);
    try {
      (void)load_agent(damaged, make_problem("tsp"));
    } catch (const std::exception& e) {
      ++refused;
      // The CLI too, where a damaged file libhdf5 cannot close must not add a line at
      // exit ("infinite loop closing library", once eie's error handler is installed).
      if (trial * kBlock >= original.size() && ++cli_runs <= 25) {
        expect_clean_failure(
            test::eie("solve --dataset " + data.string() + " --model " + damaged.string()),
            "damaged.h5: ");
      }
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(damaged.string() + ": ", 0), 0u)
          << "trial " << trial << ": " << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << "trial " << trial << ": " << message;
      EXPECT_FALSE(std::regex_search(message, library_call))
          << "trial " << trial << ": " << message;
    }
  }
  EXPECT_GT(refused, 10);
}

// Offset of the data of root attribute `name`'s message in a file eie writes (version 1:
// version, reserved, name length including its NUL, datatype and dataspace lengths, name).
size_t attribute_message(const std::string& bytes, const std::string& name) {
  for (auto at = bytes.find(name + '\0'); at != std::string::npos;
       at = bytes.find(name + '\0', at + 1)) {
    if (at >= 8 && bytes[at - 8] == 1 && little_endian(bytes, at - 6, 2) == name.size() + 1) {
      return at - 8;
    }
  }
  ADD_FAILURE() << "no attribute message for '" << name << "'";
  return 0;
}

// The fuzzers' crashes under H5O__attr_exists: libhdf5 decodes every attribute message of
// the root group when one attribute is looked up, trusting the sizes inside each. eie
// checks them first; each corruption ends in one line (in process, and from the CLI).
TEST(Reliability, CorruptAttributeMessagesEndInOneLineBeforeLibhdf5ReadsThem) {
  const auto dir = test::scratch_dir("reliability-attribute-messages");
  auto agent = make_agent(make_problem("tsp"), test::small_network(16, 2, 16, 1), 20);
  const auto model = dir / "model.h5";
  save_model(*agent, model);
  const auto original = read_bytes(model);
  const size_t message = attribute_message(original, "policy");
  const size_t name = message + 8, type = name + 8;  // "policy\0" padded to 8 bytes
  const size_t space = type + (little_endian(original, message + 4, 2) + 7) / 8 * 8;
  const std::vector<std::pair<std::function<void(std::string&)>, std::string>> corruptions = {
      {[&](std::string& b) { put_little_endian(b, message + 2, 2, 4000); },
       "its name of 4000 bytes runs past the message"},
      {[&](std::string& b) { b.replace(name, 8, "policies"); }, "its name has no NUL"},
      {[&](std::string& b) { put_little_endian(b, message + 4, 2, 60000); },
       "its datatype of 60000 bytes runs past the message"},
      {[&](std::string& b) { b[space + 1] = 1; }, "its dataspace's 1 dimensions run past"},
      {[&](std::string& b) { put_little_endian(b, type + 4, 4, 1u << 30); },
       "its data of 1 values of 1073741824 bytes runs past the message"}};
  const auto damaged = dir / "damaged.h5";
  const auto where = "the file is damaged (the attribute message at " + std::to_string(message - 8);
  for (const auto& [corrupt, what] : corruptions) {
    auto bytes = original;
    corrupt(bytes);
    write_bytes(damaged, bytes);
    try {
      (void)h5::Reader(damaged).string_attribute("problem");
      ADD_FAILURE() << "read with " << what;
    } catch (const std::runtime_error& e) {
      const auto line = damaged.string() + ": reading attribute 'problem': " + where + ": " + what;
      EXPECT_EQ(std::string(e.what()).substr(0, line.size()), line);
    }
  }
  const auto data = dir / "tsp.h5";
  ASSERT_EQ(test::eie("gen --n 10 --count 2 --out " + data.string()).exit_code, 0);
  expect_clean_failure(
      test::eie("solve --dataset " + data.string() + " --model " + damaged.string()),
      "runs past the message");
}

// Version 2 object headers (h5py's and libhdf5's newest format) carry checksums, which
// eie verifies as libhdf5 does (Jenkins' lookup3) before it checks their attributes.
TEST(Reliability, VersionTwoObjectHeadersAreCheckedWithTheirChecksums) {
  const auto path = test::scratch_dir("reliability-v2-headers") / "latest.h5";
  {
    H5::FileAccPropList access;
    H5Pset_libver_bounds(access.getId(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    H5::H5File file(path.string(), H5F_ACC_TRUNC, H5::FileCreatPropList::DEFAULT, access);
    auto root = file.openGroup("/");
    const double values[3] = {1, 2, 3};
    const hsize_t three = 3;
    root.createAttribute("values", H5::PredType::IEEE_F64LE, H5::DataSpace(1, &three))
        .write(H5::PredType::NATIVE_DOUBLE, values);
    H5::StrType text(H5::PredType::C_S1, 5);
    root.createAttribute("alpha", text, H5::DataSpace(H5S_SCALAR)).write(text, "abcde");
  }
  // The root's address and the file's layout from libhdf5, before the change below
  // (which libhdf5 itself would refuse at its checksum).
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5O_info_t root;
  ASSERT_GE(H5Oget_info2(file, &root, H5O_INFO_BASIC), 0);
  const auto layout = h5::layout_of(file, path);
  H5Fclose(file);
  auto bytes = read_bytes(path);
  ASSERT_NE(bytes.find("OHDR"), std::string::npos) << "not a version 2 header";
  EXPECT_NO_THROW(h5::check_attribute_messages(layout, root.addr));
  bytes[bytes.find("alpha")] = 'A';
  write_bytes(path, bytes);
  try {
    h5::check_attribute_messages(layout, root.addr);
    ADD_FAILURE() << "a changed name passed the checksum";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not match its checksum"), std::string::npos)
        << e.what();
  }
}

// The check accepts the files eie reads: the reference models and golden data, the
// shipped models, older eie's variable-length strings.
TEST(Reliability, ReferenceFilesPassTheAttributeCheckFromShared) {
  EIE_REQUIRE_SHARED();
  std::vector<std::filesystem::path> files;
  for (const auto& folder : {test::shared_dir() / "reference/kool-am",
                             std::filesystem::path(EIE_SOURCE_DIR) / "results/models",
                             std::filesystem::path(EIE_TEST_DATA) / "h5"}) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() == ".h5") files.push_back(entry.path());
    }
  }
  EXPECT_GE(files.size(), 8u);
  for (const auto& file : files)
    EXPECT_NO_THROW((void)h5::Reader(file).has_attribute("problem")) << file;
}

}  // namespace
}  // namespace eie
