#include "src/io/h5_file.h"

#include <H5Cpp.h>

#include <algorithm>
#include <initializer_list>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "src/io/h5_attribute_check.h"
#include "src/io/h5_cause.h"
#include "src/io/h5_global_heap.h"

namespace eie::h5 {

namespace {

H5::PredType file_type(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat:
      return H5::PredType::IEEE_F32LE;
    case torch::kDouble:
      return H5::PredType::IEEE_F64LE;
    case torch::kInt:
      return H5::PredType::STD_I32LE;
    case torch::kLong:
      return H5::PredType::STD_I64LE;
    case torch::kByte:
      return H5::PredType::STD_U8LE;
    default:
      throw std::invalid_argument("HDF5: unsupported tensor dtype");
  }
}

H5::PredType memory_type(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat:
      return H5::PredType::NATIVE_FLOAT;
    case torch::kDouble:
      return H5::PredType::NATIVE_DOUBLE;
    case torch::kInt:
      return H5::PredType::NATIVE_INT32;
    case torch::kLong:
      return H5::PredType::NATIVE_INT64;
    case torch::kByte:
      return H5::PredType::NATIVE_UINT8;
    default:
      throw std::invalid_argument("HDF5: unsupported tensor dtype");
  }
}

torch::ScalarType tensor_type(const H5::DataSet& dataset) {
  const H5T_class_t cls = dataset.getTypeClass();
  const size_t size = dataset.getDataType().getSize();
  if (size > sizeof(int64_t)) throw std::invalid_argument("not a numeric dataset");
  if (cls == H5T_FLOAT) return size == 8 ? torch::kDouble : torch::kFloat;
  if (cls == H5T_INTEGER) {
    const bool is_signed = dataset.getIntType().getSign() != H5T_SGN_NONE;
    if (size == 1 && !is_signed) return torch::kByte;
    if (size <= 4) return torch::kInt;
    return torch::kLong;
  }
  throw std::invalid_argument("not a numeric dataset");
}

// libhdf5's own words for its latest failure, in parentheses, or nothing.
std::string in_parentheses(const std::string& cause) {
  return cause.empty() ? std::string() : " (" + cause + ")";
}

// Why the latest libhdf5 read failed, for a user: what it found wrong in the file,
// never the name of the call.
std::string failure_cause() { return "the file is damaged" + in_parentheses(last_cause()); }

// Runs `body`, turning the HDF5 library's exceptions (which are no std::exception)
// into one line naming the file, what was being done and what libhdf5 found wrong.
template <class Body>
auto guarded(const std::filesystem::path& path, const std::string& what, Body body) {
  forget_cause();
  try {
    return body();
  } catch (const H5::Exception&) {
    throw std::runtime_error(path.string() + ": " + what + ": " + failure_cause());
  }
}

// The same for writing, where the file is eie's own: only what failed, and why.
template <class Body>
auto guarded_write(const std::filesystem::path& path, const std::string& what, Body body) {
  forget_cause();
  try {
    return body();
  } catch (const H5::Exception&) {
    throw std::runtime_error(path.string() + ": " + what + " failed" +
                             in_parentheses(last_cause()));
  }
}

// Datasets whose size claims exceed what their file can hold (storage never
// written, or a forged extent) are refused before anything is allocated for them.
constexpr double kMaxExpansion = 64;       // a compressed dataset may expand this much
constexpr double kMaxDatasetBytes = 16e9;  // and never beyond this

// Compact and contiguous datasets are copied straight from their stored bytes: a
// layout that stores fewer bytes than the shape needs makes libhdf5 read past them (or
// from nothing). Contiguous storage never written (0 bytes) reads as the fill value.
void check_storage(const H5::DataSet& dataset, const std::vector<hsize_t>& dims) {
  uint64_t needed = dataset.getDataType().getSize();
  for (const auto d : dims) needed *= d;
  const auto layout = dataset.getCreatePlist().getLayout();
  if (layout == H5D_VIRTUAL) throw std::invalid_argument("is virtual (stored in other files)");
  const uint64_t stored = dataset.getStorageSize();
  if ((layout == H5D_COMPACT && stored != needed) ||
      (layout == H5D_CONTIGUOUS && stored != 0 && stored != needed)) {
    throw std::invalid_argument("stores " + std::to_string(stored) +
                                " bytes where its shape needs " + std::to_string(needed));
  }
}

}  // namespace

// The file is built in memory (HDF5's core driver, no backing store) and written out
// whole by AtomicPath on commit: a full disk fails that checked write, never HDF5's own
// close, which left the file open in the library and crashed its shutdown at exit.
Writer::Writer(const std::filesystem::path& target) : path_(target) {
  keep_failure_causes();
  try {
    H5::FileAccPropList access;
    if (H5Pset_fapl_core(access.getId(), 1 << 20, /*backing_store=*/0) < 0) {
      throw H5::FileIException("H5Pset_fapl_core", "cannot build the file in memory");
    }
    file_ = std::make_unique<H5::H5File>(path_.temporary().string(), H5F_ACC_TRUNC,
                                         H5::FileCreatPropList::DEFAULT, access);
  } catch (const H5::Exception&) {
    throw std::runtime_error(target.string() + ": cannot create file");
  }
}

Writer::~Writer() = default;

void Writer::write(const std::string& name, const torch::Tensor& tensor) {
  auto data = tensor.detach().to(torch::kCPU).contiguous();
  if (data.scalar_type() == torch::kBool) data = data.to(torch::kByte);
  guarded_write(path_.target(), "writing dataset '" + name + "'", [&] {
    std::vector<hsize_t> dims(data.sizes().begin(), data.sizes().end());
    H5::DataSpace space(static_cast<int>(dims.size()), dims.data());
    H5::LinkCreatPropList links;
    H5Pset_create_intermediate_group(links.getId(), 1);
    auto dataset =
        file_->createDataSet(name, file_type(data.scalar_type()), space,
                             H5::DSetCreatPropList::DEFAULT, H5::DSetAccPropList::DEFAULT, links);
    dataset.write(data.data_ptr(), memory_type(data.scalar_type()));
  });
}

void Writer::attribute(const std::string& name, const Attribute& value) {
  guarded_write(path_.target(), "writing attribute '" + name + "'", [&] {
    H5::DataSpace scalar(H5S_SCALAR);
    auto root = file_->openGroup("/");
    if (const auto* i = std::get_if<int64_t>(&value)) {
      root.createAttribute(name, H5::PredType::STD_I64LE, scalar)
          .write(H5::PredType::NATIVE_INT64, i);
    } else if (const auto* d = std::get_if<double>(&value)) {
      root.createAttribute(name, H5::PredType::IEEE_F64LE, scalar)
          .write(H5::PredType::NATIVE_DOUBLE, d);
    } else {
      // Fixed length: variable-length strings live in HDF5's global heap, which
      // libhdf5 reads without checks (src/io/h5_global_heap.h).
      const auto& text = std::get<std::string>(value);
      H5::StrType type(H5::PredType::C_S1, std::max<size_t>(text.size(), 1));
      type.setStrpad(H5T_STR_NULLPAD);
      type.setCset(H5T_CSET_UTF8);
      root.createAttribute(name, type, scalar).write(type, text.c_str());
    }
  });
}

void Writer::commit() {
  const auto image = guarded_write(path_.target(), "writing", [&] {
    file_->flush(H5F_SCOPE_GLOBAL);
    const auto size = H5Fget_file_image(file_->getId(), nullptr, 0);
    std::string bytes(size > 0 ? static_cast<size_t>(size) : 0, '\0');
    if (size <= 0 || H5Fget_file_image(file_->getId(), bytes.data(), bytes.size()) != size) {
      throw H5::FileIException("H5Fget_file_image", "no image of the file");
    }
    file_->close();
    return bytes;
  });
  path_.write(image);
  path_.commit();
}

Reader::Reader(const std::filesystem::path& path) : path_(path) {
  keep_failure_causes();
  if (!std::filesystem::is_regular_file(path)) {
    throw std::invalid_argument(path.string() + ": no such file");
  }
  file_bytes_ = std::filesystem::file_size(path);
  try {
    forget_cause();
    file_ = std::make_unique<H5::H5File>(path.string(), H5F_ACC_RDONLY);
  } catch (const H5::Exception&) {
    throw std::invalid_argument(path.string() + ": not a readable HDF5 file" +
                                in_parentheses(last_cause()));
  }
}

Reader::~Reader() = default;

bool Reader::has(const std::string& name) const {
  return guarded(path_, "looking for dataset '" + name + "'", [&] {
    // Each group on the way in turn: libhdf5 fails, rather than answers no, when one
    // is missing, and a failure means a damaged file.
    for (auto end = name.find('/', 1);; end = name.find('/', end + 1)) {
      if (!file_->nameExists(name.substr(0, end))) return false;
      if (end == std::string::npos) break;
    }
    return file_->childObjType(name) == H5O_TYPE_DATASET;
  });
}

torch::Tensor Reader::read(const std::string& name) const {
  if (!has(name)) throw std::invalid_argument(path_.string() + ": missing dataset '" + name + "'");
  forget_cause();
  try {
    const auto dataset = file_->openDataSet(name);
    const auto space = dataset.getSpace();
    std::vector<hsize_t> dims(space.getSimpleExtentNdims());
    space.getSimpleExtentDims(dims.data());
    const auto type = tensor_type(dataset);
    double bytes = static_cast<double>(c10::elementSize(type));
    for (const auto d : dims) bytes *= static_cast<double>(d);
    const auto file_bytes = static_cast<double>(file_bytes_);
    if (bytes > std::min(kMaxDatasetBytes, kMaxExpansion * file_bytes + (1 << 20))) {
      // A product of forged extents may exceed every integer type.
      std::ostringstream claim;
      claim << std::setprecision(bytes < 1e15 ? 15 : 3) << bytes;
      throw std::invalid_argument("claims " + claim.str() + " bytes, more than a file of " +
                                  std::to_string(file_bytes_) + " bytes can hold");
    }
    check_storage(dataset, dims);
    auto tensor = torch::empty(std::vector<int64_t>(dims.begin(), dims.end()), type);
    dataset.read(tensor.data_ptr(), memory_type(type));
    return tensor;
  } catch (const H5::Exception&) {
    throw std::invalid_argument(path_.string() + ": cannot read dataset '" + name +
                                "': " + failure_cause());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path_.string() + ": dataset '" + name + "': " + e.what());
  }
}

std::vector<std::string> Reader::datasets(const std::string& group) const {
  return guarded(path_, "listing group '" + group + "'", [&] {
    std::vector<std::string> names;
    const auto g = file_->openGroup(group);
    for (hsize_t i = 0; i < g.getNumObjs(); ++i) {
      if (g.getObjTypeByIdx(i) == H5G_DATASET) names.push_back(g.getObjnameByIdx(i));
    }
    return names;
  });
}

bool Reader::has_attribute(const std::string& name) const {
  const auto what = "reading attribute '" + name + "'";
  if (!attributes_checked_) {
    // Before libhdf5 decodes any of them (src/io/h5_attribute_check.h).
    const auto root = guarded(path_, what, [&] {
      H5O_info_t info;
      if (H5Oget_info2(file_->getId(), &info, H5O_INFO_BASIC) < 0) {
        throw H5::GroupIException("H5Oget_info2", "no object header for the root group");
      }
      return info.addr;
    });
    try {
      check_attribute_messages(layout_of(file_->getId(), path_), root);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(path_.string() + ": " + what + ": the file is damaged (" + e.what() +
                               ")");
    }
    attributes_checked_ = true;
  }
  return guarded(path_, what, [&] { return file_->openGroup("/").attrExists(name); });
}

namespace {

// The longest string attribute read; eie writes names and short settings.
constexpr uint64_t kMaxStringBytes = 1 << 20;

// Opens root attribute `name`, checks that it holds one value of one of `classes` in a
// type at most `max_type_bytes` wide (what a read will ask memory for), and returns
// what `read` makes of it. Every failure is one line naming the file and the attribute.
template <class Read>
auto read_attribute(const H5::H5File& file, const std::filesystem::path& path,
                    const std::string& name, const std::string& kind,
                    std::initializer_list<H5T_class_t> classes, uint64_t max_type_bytes,
                    Read read) {
  return guarded(path, "reading attribute '" + name + "'", [&] {
    const auto attr = file.openGroup("/").openAttribute(name);
    try {
      // One value: a read of more would write past it.
      const auto cls = attr.getTypeClass();
      if (std::find(classes.begin(), classes.end(), cls) == classes.end() ||
          attr.getSpace().getSimpleExtentNpoints() != 1) {
        throw std::invalid_argument("is not one " + kind);
      }
      const auto type_bytes = attr.getDataType().getSize();
      if (type_bytes > max_type_bytes) {
        throw std::invalid_argument("claims a " + kind + " of " + std::to_string(type_bytes) +
                                    " bytes (at most " + std::to_string(max_type_bytes) +
                                    " allowed)");
      }
      return read(attr);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(path.string() + ": attribute '" + name + "' " + e.what());
    }
  });
}

// Read through the C API, never the C++ wrapper (it passed a corrupt file's null
// variable-length string to strlen); variable-length strings are read from the global
// heap by eie itself (src/io/h5_global_heap.h).
std::string read_string(const H5::H5File& file, const std::filesystem::path& path,
                        const H5::Attribute& attr) {
  const auto type = attr.getStrType();
  if (!type.isVariableStr()) {
    std::string value(type.getSize(), '\0');
    if (H5Aread(attr.getId(), type.getId(), value.data()) < 0) {
      throw std::invalid_argument("cannot be read: " + failure_cause());
    }
    // Fixed-length strings may carry NUL padding.
    value.erase(std::find(value.begin(), value.end(), '\0'), value.end());
    return value;
  }
  return read_variable_string(attr.getId(), layout_of(file.getId(), path), kMaxStringBytes);
}

}  // namespace

std::string Reader::string_attribute(const std::string& name) const {
  if (!has_attribute(name)) {
    throw std::invalid_argument(path_.string() + ": missing attribute '" + name + "'");
  }
  return read_attribute(
      *file_, path_, name, "string", {H5T_STRING}, std::min(kMaxStringBytes, file_bytes_),
      [&](const H5::Attribute& attr) { return read_string(*file_, path_, attr); });
}

int64_t Reader::int_attribute(const std::string& name) const {
  if (!has_attribute(name)) {
    throw std::invalid_argument(path_.string() + ": missing attribute '" + name + "'");
  }
  return read_attribute(*file_, path_, name, "integer", {H5T_INTEGER}, sizeof(int64_t),
                        [](const H5::Attribute& attr) {
                          int64_t value = 0;
                          attr.read(H5::PredType::NATIVE_INT64, &value);
                          return value;
                        });
}

double Reader::double_attribute(const std::string& name) const {
  if (!has_attribute(name)) {
    throw std::invalid_argument(path_.string() + ": missing attribute '" + name + "'");
  }
  return read_attribute(*file_, path_, name, "number", {H5T_FLOAT, H5T_INTEGER}, sizeof(double),
                        [](const H5::Attribute& attr) {
                          double value = 0;
                          attr.read(H5::PredType::NATIVE_DOUBLE, &value);
                          return value;
                        });
}

}  // namespace eie::h5
