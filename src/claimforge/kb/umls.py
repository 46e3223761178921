"""(being written this session)"""
