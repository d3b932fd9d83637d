#include <H5Cpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <vector>

#include "src/agent/model_file.h"
#include "src/agent/policy_registry.h"
#include "src/io/dataset.h"
#include "src/io/h5_file.h"
#include "src/io/model_format.h"
#include "src/problem/registry.h"
#include "tests/test_support.h"

namespace eie {
namespace {

TEST(H5File, TensorsAndAttributesRoundTrip) {
  const auto path = test::scratch_dir("h5") / "a.h5";
  const auto f = torch::randn({3, 4});
  const auto d = torch::randn({2}, torch::kDouble);
  const auto i = torch::randint(0, 100, {5}, torch::kInt);
  const auto l = torch::randint(0, 100, {2, 2}, torch::kLong);
  const auto b = torch::randint(0, 255, {7}, torch::kByte);
  {
    h5::Writer w(path);
    w.write("f", f);
    w.write("group/d", d);
    w.write("i", i);
    w.write("l", l);
    w.write("b", b);
    w.attribute("name", std::string("tsp"));
    w.attribute("count", int64_t{42});
    w.attribute("rate", 0.5);
    EXPECT_FALSE(std::filesystem::exists(path)) << "visible before commit";
    w.commit();
  }
  const h5::Reader r(path);
  EXPECT_TRUE(torch::equal(r.read("f"), f));
  EXPECT_TRUE(torch::equal(r.read("group/d"), d));
  EXPECT_TRUE(torch::equal(r.read("i"), i));
  EXPECT_TRUE(torch::equal(r.read("l"), l));
  EXPECT_TRUE(torch::equal(r.read("b"), b));
  EXPECT_EQ(r.string_attribute("name"), "tsp");
  EXPECT_EQ(r.int_attribute("count"), 42);
  EXPECT_DOUBLE_EQ(r.double_attribute("rate"), 0.5);
  EXPECT_THROW((void)r.read("missing"), std::invalid_argument);
  EXPECT_THROW((void)r.int_attribute("name"), std::invalid_argument);
}

TEST(H5File, UncommittedWriterLeavesNothing) {
  const auto dir = test::scratch_dir("h5-abort");
  {
    h5::Writer w(dir / "a.h5");
    w.write("x", torch::ones({2}));
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

TEST(H5File, ReadsFixedLengthStringAttributes) {
  const auto path = test::scratch_dir("h5-fixed") / "fixed.h5";
  {
    H5::H5File file(path.string(), H5F_ACC_TRUNC);
    H5::StrType type(H5::PredType::C_S1, 8);
    file.openGroup("/")
        .createAttribute("problem", type, H5::DataSpace(H5S_SCALAR))
        .write(type, std::string("tsp"));
  }
  EXPECT_EQ(h5::Reader(path).string_attribute("problem"), "tsp");
}

// eie writes fixed-length strings (nothing in the global heap, which libhdf5 reads
// unchecked); files with variable-length strings, as h5py and older eie wrote them,
// still read, the empty string included.
TEST(H5File, WritesFixedLengthAndReadsVariableLengthStrings) {
  const auto dir = test::scratch_dir("h5-strings");
  {
    h5::Writer w(dir / "eie.h5");
    w.attribute("problem", std::string("tsp"));
    w.attribute("empty", std::string());
    w.commit();
  }
  {
    H5::H5File file((dir / "eie.h5").string(), H5F_ACC_RDONLY);
    EXPECT_FALSE(file.openGroup("/").openAttribute("problem").getStrType().isVariableStr());
  }
  const h5::Reader eie_file(dir / "eie.h5");
  EXPECT_EQ(eie_file.string_attribute("problem"), "tsp");
  EXPECT_EQ(eie_file.string_attribute("empty"), "");
  {
    H5::H5File file((dir / "vlen.h5").string(), H5F_ACC_TRUNC);
    H5::StrType vlen(H5::PredType::C_S1, H5T_VARIABLE);
    auto root = file.openGroup("/");
    root.createAttribute("problem", vlen, H5::DataSpace(H5S_SCALAR))
        .write(vlen, std::string("cvrp"));
    root.createAttribute("empty", vlen, H5::DataSpace(H5S_SCALAR)).write(vlen, std::string());
  }
  const h5::Reader vlen_file(dir / "vlen.h5");
  EXPECT_EQ(vlen_file.string_attribute("problem"), "cvrp");
  EXPECT_EQ(vlen_file.string_attribute("empty"), "");
}

// The shipped models were written with variable-length strings.
TEST(H5File, ShippedModelsStillLoad) {
  const auto models = std::filesystem::path(EIE_SOURCE_DIR) / "results" / "models";
  int loaded = 0;
  for (const char* problem : {"tsp", "cvrp", "bpp3d"}) {
    const auto path = models / (std::string(problem) + "100.h5");
    if (!std::filesystem::exists(path)) continue;
    EXPECT_EQ(h5::Reader(path).string_attribute("problem"), problem);
    EXPECT_NO_THROW((void)load_agent(path, make_problem(problem)));
    ++loaded;
  }
  if (loaded == 0) GTEST_SKIP() << "no models in " << models;
}

// What a corrupt file can hold where eie expects one value: a null variable-length
// string (the C++ wrapper passed it to strlen) and attributes of several values
// (a read of one value would write past it).
TEST(H5File, NullStringsAndManyValuedAttributesAreRefused) {
  const auto path = test::scratch_dir("h5-odd-attributes") / "odd.h5";
  {
    H5::H5File file(path.string(), H5F_ACC_TRUNC);
    auto root = file.openGroup("/");
    H5::StrType vlen(H5::PredType::C_S1, H5T_VARIABLE);
    const char* null_string = nullptr;
    auto attr = root.createAttribute("problem", vlen, H5::DataSpace(H5S_SCALAR));
    ASSERT_GE(H5Awrite(attr.getId(), vlen.getId(), &null_string), 0);
    const hsize_t three = 3;
    const int64_t values[3] = {1, 2, 3};
    root.createAttribute("n", H5::PredType::STD_I64LE, H5::DataSpace(1, &three))
        .write(H5::PredType::NATIVE_INT64, values);
    const double rates[3] = {0.5, 0.25, 0.125};
    root.createAttribute("rate", H5::PredType::IEEE_F64LE, H5::DataSpace(1, &three))
        .write(H5::PredType::NATIVE_DOUBLE, rates);
    const char* names[3] = {"a", "b", "c"};
    root.createAttribute("names", vlen, H5::DataSpace(1, &three)).write(vlen, names);
  }
  const h5::Reader reader(path);
  for (const auto& [name, read] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"problem", [&] { (void)reader.string_attribute("problem"); }},
           {"names", [&] { (void)reader.string_attribute("names"); }},
           {"n", [&] { (void)reader.int_attribute("n"); }},
           {"rate", [&] { (void)reader.double_attribute("rate"); }}}) {
    try {
      read();
      ADD_FAILURE() << name << " was read";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("attribute '" + name + "'"), std::string::npos)
          << e.what();
    }
  }
}

TEST(H5File, CorruptFileIsRejected) {
  EXPECT_THROW(h5::Reader(std::filesystem::path(EIE_TEST_DATA) / "broken/corrupt.h5"),
               std::invalid_argument);
  EXPECT_THROW(h5::Reader("/nonexistent/file.h5"), std::invalid_argument);
}

TEST(Dataset, RoundTripAndEmptyRejected) {
  const auto dir = test::scratch_dir("dataset");
  auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
  Dataset ds{"tsp",
             {{"domain", "symmetric"}},
             make_problem("tsp", ProblemOptions{{"domain", "symmetric"}})->generate(4, 10, gen)};
  write_dataset(dir / "d.h5", ds);
  const auto back = read_dataset(dir / "d.h5");
  EXPECT_EQ(back.problem, "tsp");
  EXPECT_EQ(back.options.at("domain"), "symmetric");
  EXPECT_TRUE(torch::equal(back.instances.at("coords"), ds.instances.at("coords")));
  EXPECT_LT(back.instances.at("coords").min().item<float>(), 0.0f);

  write_dataset(dir / "empty.h5",
                Dataset{"tsp", {}, Instances({{"coords", torch::zeros({0, 5, 2})}})});
  EXPECT_THROW((void)read_dataset(dir / "empty.h5"), std::invalid_argument);
}

TEST(Checkpoint, ModelRoundTripAndVersionCheck) {
  const auto dir = test::scratch_dir("checkpoint");
  const auto problem = make_problem("tsp");
  NetworkOptions options;
  options.encoder.layers = 2;
  options.encoder.normalization = nn::Normalization::layer;
  auto agent = make_agent(problem, options, 50);
  save_model(*agent, dir / "m.h5");
  auto loaded = load_agent(dir / "m.h5", problem);
  EXPECT_EQ(loaded->spec(), agent->spec());
  auto a = agent->network().named_parameters();
  for (const auto& p : loaded->network().named_parameters()) {
    EXPECT_TRUE(torch::equal(p.value(), a[p.key()])) << p.key();
  }

  h5::Writer w(dir / "v99.h5");
  w.attribute("format_version", int64_t{99});
  w.commit();
  try {
    (void)load_agent(dir / "v99.h5", problem);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("format version 99"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace eie
