//===- Npy.cpp - minimal .npy reader and writer ---------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

using namespace gather::npy;

int64_t gather::npy::byteSize(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::F16:
  case DType::I16:
  case DType::U16:
    return 2;
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  default:
    return 8;
  }
}

std::string gather::npy::descr(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "<f2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::Bool:
    return "|b1";
  }
  return "?";
}

static bool parseDescr(std::string text, DType &dtype) {
  if (text.size() != 3)
    return false;
  // Byte order: little-endian, native ('=' on x86) or not applicable.
  if (text[0] != '<' && text[0] != '|' && text[0] != '=')
    return false;
  std::string kind = text.substr(1);
  static const std::pair<const char *, DType> table[] = {
      {"f2", DType::F16}, {"f4", DType::F32}, {"f8", DType::F64},
      {"i1", DType::I8},  {"i2", DType::I16}, {"i4", DType::I32},
      {"i8", DType::I64}, {"u1", DType::U8},  {"u2", DType::U16},
      {"u4", DType::U32}, {"u8", DType::U64}, {"b1", DType::Bool}};
  for (auto &[name, value] : table)
    if (kind == name) {
      dtype = value;
      return true;
    }
  return false;
}

bool gather::npy::read(const std::string &path, Array &array,
                       std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  char magic[6];
  if (!in.read(magic, 6) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file (bad magic)";
    return false;
  }
  unsigned char version[2];
  if (!in.read(reinterpret_cast<char *>(version), 2) || version[0] < 1 ||
      version[0] > 3) {
    error = "'" + path + "': unsupported .npy version";
    return false;
  }
  uint32_t headerLen = 0;
  if (version[0] == 1) {
    unsigned char len[2];
    if (!in.read(reinterpret_cast<char *>(len), 2)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen = len[0] | (len[1] << 8);
  } else {
    unsigned char len[4];
    if (!in.read(reinterpret_cast<char *>(len), 4)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen =
        len[0] | (len[1] << 8) | (len[2] << 16) | (uint32_t(len[3]) << 24);
  }
  if (headerLen > (1u << 20)) {
    error = "'" + path + "': header too large";
    return false;
  }
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen)) {
    error = "'" + path + "': truncated header";
    return false;
  }
  std::smatch match;
  static const std::regex descrRe("'descr'\\s*:\\s*'([^']*)'");
  static const std::regex fortranRe("'fortran_order'\\s*:\\s*(True|False)");
  static const std::regex shapeRe("'shape'\\s*:\\s*\\(([^)]*)\\)");
  if (!std::regex_search(header, match, descrRe) ||
      !parseDescr(match[1].str(), array.dtype)) {
    error = "'" + path +
            "': unsupported dtype (supported: f2 f4 f8 i1 i2 "
            "i4 i8 u1 u2 u4 u8 b1, little-endian)";
    return false;
  }
  if (!std::regex_search(header, match, fortranRe)) {
    error = "'" + path + "': header has no fortran_order";
    return false;
  }
  if (match[1].str() == "True") {
    error = "'" + path +
            "': Fortran-order arrays are not supported "
            "(save with np.ascontiguousarray)";
    return false;
  }
  if (!std::regex_search(header, match, shapeRe)) {
    error = "'" + path + "': header has no shape";
    return false;
  }
  array.shape.clear();
  std::stringstream dims(match[1].str());
  std::string item;
  int64_t count = 1;
  while (std::getline(dims, item, ',')) {
    size_t begin = item.find_first_not_of(" \t");
    if (begin == std::string::npos)
      continue;
    char *end = nullptr;
    long long value = std::strtoll(item.c_str() + begin, &end, 10);
    if (value < 0 || end == item.c_str() + begin) {
      error = "'" + path + "': bad shape in header";
      return false;
    }
    array.shape.push_back(value);
    if (value != 0 && count > (int64_t(1) << 40) / value) {
      error = "'" + path + "': array too large";
      return false;
    }
    count *= value;
  }
  int64_t bytes = count * byteSize(array.dtype);
  array.data.assign(bytes, 0);
  if (bytes && !in.read(array.data.data(), bytes)) {
    error = "'" + path + "': truncated data (expected " +
            std::to_string(bytes) + " bytes)";
    return false;
  }
  return true;
}

bool gather::npy::write(const std::string &path, const Array &array,
                        std::string &error) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    shape += std::to_string(array.shape[i]);
    if (array.shape.size() == 1)
      shape += ",";
    else if (i + 1 < array.shape.size())
      shape += ", ";
  }
  shape += ")";
  std::string header = "{'descr': '" + descr(array.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = header.size();
  char lenBytes[2] = {char(len & 0xff), char(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), header.size());
  out.write(array.data.data(), array.data.size());
  if (!out) {
    error = "failed writing '" + path + "'";
    return false;
  }
  return true;
}
